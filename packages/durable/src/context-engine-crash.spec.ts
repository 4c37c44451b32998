import type { AgentEvent } from '@rxagent/core';
import type { RunResult } from '@rxagent/core/streams';
import { CHECKPOINT_HEADER } from '@rxagent/context';
import type { DurableRunSpec } from '@rxagent/durable';
import {
  appendedLines,
  durableTestbed,
  stableEvents,
  withoutTimes,
  type WorkerProcess,
  watchToEnd,
} from './durable-test-kit.test.js';

// A run whose context manager is a real @rxagent/context engine (registered by the workers as
// 'engine', test/context-fixture.mjs): ten long steps in a 2,000-token window, so it summarizes
// once, then updates that summary twice. Its worker is killed with SIGKILL while the first
// model call after the first summary streams; another worker finishes the run. The engine's
// state (its checkpoint, the view it sent, its calibration) comes back from the recorded
// projections, so the run goes on exactly as the same run without a crash.

jest.setTimeout(120_000);

const bed = durableTestbed({ pollIntervalMs: 50 });

/** The same prompt for both runs: their requests must be equal, and nothing in them names the run. */
const PROMPT = 'Work through the ten steps, one line each.';
const SPEC: DurableRunSpec = {
  model: 'work',
  tools: ['append_line'],
  contextManager: 'engine',
  maxSteps: 20,
  prompt: PROMPT,
};

interface Logged {
  worker: string;
  prompt: string;
  step: number;
  messages: { role: string; content: unknown }[];
}

/** The work model's requests a worker made, in order (their messages without times). */
const requests = (worker: string) =>
  appendedLines(`${bed.file}.requests`)
    .map((l) => JSON.parse(l) as Logged)
    .filter((r) => r.worker === worker)
    .map(({ step, messages }) => ({ step, messages }));

/** The summary prompts a worker sent. */
const summaryPrompts = (worker: string) =>
  appendedLines(`${bed.file}.summaries`)
    .map((l) => JSON.parse(l) as Logged)
    .filter((r) => r.worker === worker)
    .map((r) => r.prompt);

const strategies = (events: readonly AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'compaction' ? [e.strategy] : []));

/** Events logged once per execution's order (streaming ones and gauges left out). */
const keyedEvents = (events: readonly AgentEvent[]) =>
  stableEvents(events.filter((e) => e.type !== 'context-usage' && e.type !== 'summary-update'));

/** The checkpoint a summary prompt updates (`<checkpoint>…</checkpoint>`), if any. */
const previousCheckpoint = (prompt: string) => /<checkpoint>\n([\s\S]*?)\n<\/checkpoint>/.exec(prompt)?.[1];

async function run(
  runId: string,
  onEvent: (event: AgentEvent) => void = () => undefined,
): Promise<{ events: AgentEvent[]; result: RunResult }> {
  const id = await bed.runs.startRun({ ...SPEC, runId });
  const events = await watchToEnd(bed.runs, id, onEvent);
  return { events, result: await bed.runs.runResult(id) };
}

it('finishes a run compacted by the context engine on another worker after kill -9, as if nothing happened', async () => {
  // The reference: the same run on a worker that is never disturbed.
  const ref = await bed.worker('engine-ref', {});
  const reference = await run('engine-ref');
  await ref.stop();
  expect(reference.result.reason).toBe('completed');
  expect(strategies(reference.events)).toEqual(['summary', 'summary-update', 'summary-update']);
  const referenceRequests = requests('engine-ref');
  const referenceSummaries = summaryPrompts('engine-ref');
  expect(referenceRequests.map((r) => r.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  // The first call that sends a checkpoint: the one after the first summary.
  const isCheckpoint = (m: Logged['messages'][number]) =>
    m.role === 'user' && typeof m.content === 'string' && m.content.startsWith(CHECKPOINT_HEADER);
  const first = referenceRequests.find((r) => r.messages.some(isCheckpoint));
  const k = first?.step ?? 0;
  expect(k).toBeGreaterThan(1);

  // Step k's model call stops after its first delta on a: a is killed while it streams, after
  // the projection with the first summary was recorded (the call starts only after that).
  const a = await bed.worker('engine-a', { holdModel: `${PROMPT}|${k - 1}` });
  let compacted = false;
  let b: Promise<WorkerProcess> | undefined;
  const crashed = await run('engine-crash', (e) => {
    if (e.type === 'compaction') compacted = true;
    if (compacted && e.type === 'message-update' && !b) {
      b = (async () => {
        const started = bed.worker('engine-b', {});
        await a.crash();
        return started;
      })();
    }
  });
  await b;
  expect(b).toBeDefined();
  expect(a.child.signalCode).toBe('SIGKILL');

  expect(crashed.result.reason).toBe('completed');
  expect(withoutTimes(crashed.result.messages)).toEqual(withoutTimes(reference.result.messages));
  // a made calls 1 to k (k cut short); b made call k again and the rest, each request as the
  // reference's: the same views, the same checkpoints.
  expect(requests('engine-a')).toEqual(referenceRequests.slice(0, k));
  expect(requests('engine-b')).toEqual(referenceRequests.slice(k - 1));

  // The first summary was written on a; b updated it (no fresh summary of what a had folded).
  const onA = summaryPrompts('engine-a');
  const onB = summaryPrompts('engine-b');
  expect(onA).toEqual(referenceSummaries.slice(0, 1));
  expect(onB).toEqual(referenceSummaries.slice(1));
  expect(onA.map(previousCheckpoint)).toEqual([undefined]);
  expect(onB.map(previousCheckpoint)).toEqual([
    expect.stringContaining('(updated 0 times)'),
    expect.stringContaining('(updated 1 times)'),
  ]);
  expect(previousCheckpoint(onB[0] ?? '')).toMatch(/^## Goal\nWork through the ten steps/);

  // Each compaction once in the log, as in the reference: the replay on b added none.
  expect(strategies(crashed.events)).toEqual(['summary', 'summary-update', 'summary-update']);
  expect(crashed.events.filter((e) => e.type === 'summary-start')).toEqual([
    expect.objectContaining({ incremental: false }),
    expect.objectContaining({ incremental: true }),
    expect.objectContaining({ incremental: true }),
  ]);
  expect(keyedEvents(crashed.events)).toEqual(keyedEvents(reference.events));
});
