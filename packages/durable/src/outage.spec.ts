import { DurableUnavailableError } from '@rxagent/durable';
import type { AgentEvent } from '@rxagent/core';
import { appendedLines, durableTestbed, stableEvents } from './durable-test-kit.test.js';

// PostgreSQL stops in the middle of a run and comes back: calls made meanwhile fail with a
// typed error, and nothing is lost.

jest.setTimeout(120_000);

// The client's default database timeout (10 s): a call made while PostgreSQL is down fails at
// once (connection refused); a short timeout would only race PostgreSQL's answers on a busy machine.
const bed = durableTestbed({ pollIntervalMs: 100 });

it('fails calls with DurableUnavailableError while PostgreSQL is down, and loses nothing when it returns', async () => {
  const worker = await bed.worker('outage', { toolDelayMs: 1500 });
  const spec = { model: 'plan-keyed', tools: ['keyed_append'], prompt: 'Append the lines (outage).' };
  const id = await bed.runs.startRun({ ...spec, runId: 'in-flight' });
  const events: AgentEvent[] = [];
  const finished = new Promise<void>((resolve, reject) =>
    bed.runs.watchRun(id).subscribe({ next: (e) => events.push(e), error: reject, complete: resolve }),
  );
  while (!events.some((e) => e.type === 'tool-start')) await new Promise((r) => setTimeout(r, 20));

  await bed.pg.halt();
  await expect(bed.runs.startRun({ ...spec, runId: 'during-outage' })).rejects.toBeInstanceOf(
    DurableUnavailableError,
  );
  await expect(bed.runs.status('in-flight')).rejects.toThrow(/PostgreSQL (did not answer|is unreachable)/);
  await new Promise((r) => setTimeout(r, 1500));
  await bed.pg.restart();

  // The same id again: idempotent, so a caller that saw the error just retries.
  expect(await bed.runs.startRun({ ...spec, runId: 'during-outage' })).toBe('during-outage');
  await finished;
  const inFlight = await bed.runs.runResult('in-flight');
  const after = await bed.runs.runResult('during-outage');
  expect([inFlight.reason, after.reason]).toEqual(['completed', 'completed']);
  // The watcher kept its place across the outage: every event once, in order.
  expect(stableEvents(events)).toEqual(stableEvents(await lastEvents('in-flight')));
  expect(events.filter((e) => e.type === 'tool-end')).toHaveLength(3);
  const keys = appendedLines(bed.file).map((l) => l.split(' ')[0]);
  expect(keys.sort()).toEqual(
    ['in-flight', 'during-outage'].flatMap((r) => [`${r}:call_1`, `${r}:call_2`, `${r}:call_3`]).sort(),
  );
  expect(worker.child.exitCode).toBeNull();
});

async function lastEvents(runId: string): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  await new Promise<void>((resolve, reject) =>
    bed.runs.watchRun(runId).subscribe({ next: (e) => out.push(e), error: reject, complete: resolve }),
  );
  return out;
}
