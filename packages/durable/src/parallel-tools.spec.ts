import type { AgentEvent } from '@rxagent/core';
import type { RunResult } from '@rxagent/core/streams';
import type { DurableRunSpec } from '@rxagent/durable';
import {
  appendedLines,
  durableTestbed,
  withoutTimes,
  type WorkerProcess,
  watchToEnd,
} from './durable-test-kit.test.js';

// Tool calls of a durable run in parallel (toolConcurrency): each call's record is keyed by its
// run-unique id, so the order calls finish in does not change what a replay finds. The model
// asks for two batches of four slow_step calls; call n of a batch waits (4 - n) × stepMs, so
// they finish in the reverse of their order.

jest.setTimeout(120_000);

const bed = durableTestbed({ pollIntervalMs: 50 });
afterEach(() => bed.stopWorkers());

const spec = (toolConcurrency: number): DurableRunSpec => ({
  model: 'parallel',
  tools: ['slow_step'],
  toolConcurrency,
});

async function run(
  runId: string,
  toolConcurrency: number,
  onEvent: (event: AgentEvent) => void = () => undefined,
): Promise<{ events: AgentEvent[]; result: RunResult }> {
  const id = await bed.runs.startRun({ ...spec(toolConcurrency), runId, prompt: `Steps (${runId}).` });
  const events = await watchToEnd(bed.runs, id, onEvent);
  return { events, result: await bed.runs.runResult(id) };
}

/** The slow_step lines of a run, in the order they were written: `<call> start|end`. */
const steps = (runId: string) =>
  appendedLines(`${bed.file}.steps`)
    .filter((l) => l.startsWith(`${runId}:`))
    .map((l) => l.slice(runId.length + 1));

const resultIds = (result: RunResult) =>
  result.messages.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : []));

const CALL_ORDER = ['b1_0', 'b1_1', 'b1_2', 'b1_3', 'b2_0', 'b2_1', 'b2_2', 'b2_3'];

it('runs a step’s four calls at once; results enter the transcript in call order whatever order they finished in', async () => {
  await bed.worker('par-a', {});
  const parallel = await run('par-4', 4);
  expect(parallel.result.reason).toBe('completed');
  expect(resultIds(parallel.result)).toEqual(CALL_ORDER);
  const lines = steps('par-4');
  // Batch 1: all four started before any ended (they overlapped), and ended in reverse order.
  expect(lines.slice(0, 4).sort()).toEqual(['b1_0 start', 'b1_1 start', 'b1_2 start', 'b1_3 start']);
  expect(lines.slice(4, 8)).toEqual(['b1_3 end', 'b1_2 end', 'b1_1 end', 'b1_0 end']);
  // The same run with toolConcurrency 1: one call after another, and the same transcript.
  const serial = await run('par-1', 1);
  expect(steps('par-1').slice(0, 4)).toEqual(['b1_0 start', 'b1_0 end', 'b1_1 start', 'b1_1 end']);
  expect(withoutTimes(serial.result.messages.slice(1))).toEqual(
    withoutTimes(parallel.result.messages.slice(1)),
  );
});

it('resumes a batch cut by kill -9 on another worker: finished calls come from their records, the others run again, each takes effect once', async () => {
  const a = await bed.worker('par-crash-a', { stepMs: 300 });
  const reference = await run('par-ref', 4);
  let b: Promise<WorkerProcess> | undefined;
  const crashed = await run('par-crash', 4, (e) => {
    // The fastest call of batch 1 has ended; the three others are still running.
    if (e.type === 'tool-end' && e.toolCallId === 'b1_3' && !b) {
      b = (async () => {
        await a.crash();
        return bed.worker('par-crash-b', { stepMs: 300 });
      })();
    }
  });
  await b;
  expect(a.child.signalCode).toBe('SIGKILL');
  expect(crashed.result.reason).toBe('completed');
  expect(withoutTimes(crashed.result.messages.slice(1))).toEqual(
    withoutTimes(reference.result.messages.slice(1)),
  );
  const lines = steps('par-crash');
  const count = (line: string) => lines.filter((l) => l === line).length;
  for (const id of CALL_ORDER) expect([id, count(`${id} end`)]).toEqual([id, 1]);
  // b1_3 was recorded before the kill: not run again. b1_0 was still running: run again.
  expect(count('b1_3 start')).toBe(1);
  expect(count('b1_0 start')).toBe(2);
  // Each tool-end reached the watcher once.
  const ends = crashed.events.filter((e) => e.type === 'tool-end').map((e) => e.toolCallId);
  expect([...ends].sort()).toEqual([...CALL_ORDER].sort());
});

it('waits for three approvals at once, each decided on its own, in any order', async () => {
  await bed.worker('par-approve', {});
  const id = await bed.runs.startRun({
    runId: 'par-approve',
    model: 'parallel-approval',
    tools: ['guarded_append'],
    toolConcurrency: 3,
    prompt: 'Approve (par-approve).',
  });
  const requested: string[] = [];
  const decisions: Promise<boolean>[] = [];
  const events: AgentEvent[] = [];
  await new Promise<void>((resolve, reject) =>
    bed.runs.watchRun(id).subscribe({
      next: (e) => {
        events.push(e);
        if (e.type !== 'approval-request') return;
        requested.push(e.toolCallId);
        // All three wait at once (one at a time, the second would never come): decide in reverse.
        if (requested.length < 3) return;
        decisions.push(
          bed.runs.approve(id, 'b1_2'),
          bed.runs.reject(id, 'b1_1', 'Not this one.'),
          bed.runs.approve(id, 'b1_0'),
        );
      },
      error: reject,
      complete: resolve,
    }),
  );
  expect(await Promise.all(decisions)).toEqual([true, true, true]);
  const ends = events.flatMap((e) => (e.type === 'approval-end' ? [[e.toolCallId, e.approved]] : []));
  expect(Object.fromEntries(ends)).toEqual({ b1_0: true, b1_1: false, b1_2: true });
  const appended = appendedLines(bed.file).filter((l) => l.startsWith('par-approve '));
  expect(appended.map((l) => l.split(' ')[1]).sort()).toEqual(['b1_0', 'b1_2']);
  const result = await bed.runs.runResult(id);
  expect(resultIds(result)).toEqual(['b1_0', 'b1_1', 'b1_2']);
  expect(JSON.stringify(result.messages.find((m) => m.role === 'tool' && m.toolCallId === 'b1_1'))).toContain(
    'Not this one.',
  );
});
