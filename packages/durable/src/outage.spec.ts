import { durableRuns, DurableUnavailableError, type DurableRuns } from '@rxagent/durable';
import { startPostgres, type PostgresServer } from '@rxagent/testing';
import type { AgentEvent } from '@rxagent/core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  appendedLines,
  ensureBuilt,
  spawnWorker,
  stableEvents,
  type WorkerProcess,
} from './durable-test-kit.test.js';

// PostgreSQL stops in the middle of a run and comes back: calls made meanwhile fail with a
// typed error, and nothing is lost.

jest.setTimeout(120_000);

let pg: PostgresServer;
let runs: DurableRuns;
let dir: string;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  ensureBuilt();
  pg = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'rxagent-durable-outage-'));
  runs = await durableRuns({ databaseUrl: pg.url, pollIntervalMs: 100, timeoutMs: 1500 });
});

afterAll(async () => {
  await runs?.close();
  await worker?.stop();
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('fails calls with DurableUnavailableError while PostgreSQL is down, and loses nothing when it returns', async () => {
  const file = join(dir, 'lines.txt');
  worker = spawnWorker({ databaseUrl: pg.url, workerId: 'outage', file, toolDelayMs: 1500 });
  await worker.ready;
  const spec = { model: 'plan-keyed', tools: ['keyed_append'], prompt: 'Append the lines (outage).' };
  const id = await runs.startRun({ ...spec, runId: 'in-flight' });
  const events: AgentEvent[] = [];
  const finished = new Promise<void>((resolve, reject) =>
    runs.watchRun(id).subscribe({ next: (e) => events.push(e), error: reject, complete: resolve }),
  );
  while (!events.some((e) => e.type === 'tool-start')) await new Promise((r) => setTimeout(r, 20));

  await pg.halt();
  await expect(runs.startRun({ ...spec, runId: 'during-outage' })).rejects.toBeInstanceOf(
    DurableUnavailableError,
  );
  await expect(runs.status('in-flight')).rejects.toThrow(/PostgreSQL (did not answer|is unreachable)/);
  await new Promise((r) => setTimeout(r, 1500));
  await pg.restart();

  // The same id again: idempotent, so a caller that saw the error just retries.
  expect(await runs.startRun({ ...spec, runId: 'during-outage' })).toBe('during-outage');
  await finished;
  const inFlight = await runs.runResult('in-flight');
  const after = await runs.runResult('during-outage');
  expect([inFlight.reason, after.reason]).toEqual(['completed', 'completed']);
  // The watcher kept its place across the outage: every event once, in order.
  expect(stableEvents(events)).toEqual(stableEvents(await lastEvents('in-flight')));
  expect(events.filter((e) => e.type === 'tool-end')).toHaveLength(3);
  const keys = appendedLines(file).map((l) => l.split(' ')[0]);
  expect(keys.sort()).toEqual(
    ['in-flight', 'during-outage'].flatMap((r) => [`${r}:call_1`, `${r}:call_2`, `${r}:call_3`]).sort(),
  );
  expect(worker.child.exitCode).toBeNull();
});

async function lastEvents(runId: string): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  await new Promise<void>((resolve, reject) =>
    runs.watchRun(runId).subscribe({ next: (e) => out.push(e), error: reject, complete: resolve }),
  );
  return out;
}
