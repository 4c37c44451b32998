import { INTERRUPTED_TEXT, type DurableRunSpec } from '@rxagent/durable';
import type { AgentEvent } from '@rxagent/core';
import type { RunResult } from '@rxagent/core/streams';
import {
  appendedLines,
  durableTestbed,
  stableEvents,
  waitFor,
  withoutTimes,
  type WorkerProcess,
  type WorkerSettings,
  watchToEnd,
} from './durable-test-kit.test.js';

// Workers are real processes killed with SIGKILL; this process watches and decides approvals
// (the "third process"). Each scenario runs the same spec once undisturbed (the reference) and
// once with its worker killed at the chosen moment, then compares.

jest.setTimeout(120_000);

const bed = durableTestbed({ pollIntervalMs: 50 });

// Each scenario has its own workers: a survivor of the last one must not take the next run.
afterEach(() => bed.stopWorkers());

const worker = (id: string, extra: Partial<WorkerSettings>) => bed.worker(id, extra);

/** Runs `spec` as `runId`, collecting its events; `onEvent` may act on them (approve, kill). */
async function run(
  spec: DurableRunSpec,
  runId: string,
  onEvent: (event: AgentEvent, id: string) => void = () => undefined,
): Promise<{ events: AgentEvent[]; result: RunResult }> {
  const id = await bed.runs.startRun({ ...spec, runId, prompt: promptOf(runId) });
  const events = await watchToEnd(bed.runs, id, (e) => {
    onEvent(e, id);
  });
  return { events, result: await bed.runs.runResult(id) };
}

/** Each run's prompt names it, so the model's call log tells runs apart. */
const promptOf = (runId: string) => `Append the lines (${runId}).`;

/** How often the model was called, and finished, for each step of a run (by tool results so far). */
function modelCalls(runId: string): Record<string, { started: number; finished: number }> {
  const calls: Record<string, { started: number; finished: number }> = {};
  for (const line of appendedLines(`${bed.file}.calls`)) {
    const [prompt, done, what] = line.split('|');
    if (prompt !== promptOf(runId) || done === undefined) continue;
    const entry = (calls[`step ${Number(done) + 1}`] ??= { started: 0, finished: 0 });
    if (what === 'started') entry.started++;
    else entry.finished++;
  }
  return calls;
}

const once = { started: 1, finished: 1 };

const linesOf = (runId: string) =>
  appendedLines(bed.file).filter((l) => l.startsWith(`${runId}:`) || l.startsWith(`${runId} `));

function callCounts(runId: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of linesOf(runId)) {
    const call = /call_\d+/.exec(line)?.[0] ?? '?';
    counts[call] = (counts[call] ?? 0) + 1;
  }
  return counts;
}

function expectSameRun(
  crashed: { events: AgentEvent[]; result: RunResult },
  reference: { events: AgentEvent[]; result: RunResult },
) {
  expect(crashed.result.reason).toBe('completed');
  // The same transcript but for the prompt, which names the run.
  expect(withoutTimes(crashed.result.messages.slice(1))).toEqual(
    withoutTimes(reference.result.messages.slice(1)),
  );
  expect(stableEvents(crashed.events)).toEqual(stableEvents(reference.events));
}

it('resumes on another worker when its worker is killed while a tool runs: the idempotent call runs once, the transcript is the same', async () => {
  const a = await worker('tool-a', { holdCall: 'tool-crash call_2' });
  const spec: DurableRunSpec = { model: 'plan-keyed', tools: ['keyed_append'] };
  const reference = await run(spec, 'tool-ref');
  let b: Promise<WorkerProcess> | undefined;
  const crashed = await run(spec, 'tool-crash', (e) => {
    if (e.type === 'tool-start' && e.toolCallId === 'call_2' && !b) {
      b = (async () => {
        const started = worker('tool-b', {});
        await a.crash(); // call_2 is held on a: it is running, whenever this comes
        return started;
      })();
    }
  });
  expect(b).toBeDefined();
  expect(a.child.signalCode).toBe('SIGKILL');
  expectSameRun(crashed, reference);
  expect(callCounts('tool-crash')).toEqual({ call_1: 1, call_2: 1, call_3: 1 });
  // No model call was made again: the recorded ones came back from PostgreSQL.
  expect(modelCalls('tool-crash')).toEqual({
    'step 1': once,
    'step 2': once,
    'step 3': once,
    'step 4': once,
  });
});

it('seals an at-most-once call a crash cut short with an error the model reads, and never runs it again', async () => {
  const a = await worker('seal-a', { holdCall: 'seal-crash call_2' });
  const spec: DurableRunSpec = { model: 'plan', tools: ['append_line'] };
  let b: Promise<WorkerProcess> | undefined;
  const crashed = await run(spec, 'seal-crash', (e) => {
    if (e.type === 'tool-start' && e.toolCallId === 'call_2' && !b) {
      b = (async () => {
        const started = worker('seal-b', {});
        await a.crash(); // call_2 is held on a: it is running, whenever this comes
        return started;
      })();
    }
  });
  expect(crashed.result.reason).toBe('completed');
  const sealed = crashed.result.messages.find((m) => m.role === 'tool' && m.toolCallId === 'call_2');
  expect(sealed).toMatchObject({ isError: true, content: [{ type: 'text', text: INTERRUPTED_TEXT }] });
  // call_2 was killed in its delay, before its append: it never ran again.
  expect(callCounts('seal-crash')).toEqual({ call_1: 1, call_3: 1 });
});

it('resumes when its worker is killed while the model streams: no completed call is made again', async () => {
  // Step 2's model call stops after its first delta on a: it streams when a is killed.
  const a = await worker('model-a', { latencyMs: 150, holdModel: `${promptOf('model-crash')}|1` });
  const spec: DurableRunSpec = { model: 'plan-keyed', tools: ['keyed_append'] };
  const reference = await run(spec, 'model-ref');
  let toolsDone = 0;
  let b: Promise<WorkerProcess> | undefined;
  const crashed = await run(spec, 'model-crash', (e) => {
    if (e.type === 'tool-end') toolsDone++;
    if (e.type === 'message-update' && toolsDone === 1 && !b) {
      b = (async () => {
        const started = worker('model-b', {});
        await a.crash();
        return started;
      })();
    }
  });
  expect(b).toBeDefined();
  expectSameRun(crashed, reference);
  expect(callCounts('model-crash')).toEqual({ call_1: 1, call_2: 1, call_3: 1 });
  // The call cut short was made again (twice started, once finished); the finished ones never.
  expect(modelCalls('model-crash')).toEqual({
    'step 1': once,
    'step 2': { started: 2, finished: 1 },
    'step 3': once,
    'step 4': once,
  });
});

it('keeps an approval waiting across a crash; a decision from another process resumes the run on another worker', async () => {
  const a = await worker('approval-a', {});
  const spec: DurableRunSpec = { model: 'plan-approval', tools: ['keyed_append', 'guarded_append'] };
  const reference = await run(spec, 'approval-ref', (e, id) => {
    if (e.type === 'approval-request') void bed.runs.approve(id, e.toolCallId);
  });
  let killed: Promise<void> | undefined;
  const crashed = await run(spec, 'approval-crash', (e, id) => {
    if (e.type === 'approval-request' && !killed) {
      killed = (async () => {
        await worker('approval-b', {});
        await a.crash();
        await bed.runs.approve(id, e.toolCallId);
      })();
    }
  });
  await killed;
  expectSameRun(crashed, reference);
  expect(callCounts('approval-crash')).toEqual({ call_1: 1, call_2: 1, call_3: 1 });
  expect(modelCalls('approval-crash')).toEqual({
    'step 1': once,
    'step 2': once,
    'step 3': once,
    'step 4': once,
  });
});

it('ends a run at its step limit, each event once', async () => {
  await worker('limit-a', {});
  const { events } = await run({ model: 'plan-keyed', tools: ['keyed_append'], maxSteps: 2 }, 'steps-limit');
  expect(events.filter((e) => e.type === 'agent-start')).toHaveLength(1);
  expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'steps-limit' });
  await waitFor(() => linesOf('steps-limit').length === 2, 5000, 'two appended lines');
});

it('starts and runs without warnings on stderr (no pg deprecation notice from the DBOS pool)', async () => {
  const w = await worker('quiet-a', {});
  await run({ model: 'plan-keyed', tools: ['keyed_append'], maxSteps: 2 }, 'quiet-run');
  await w.stop();
  expect(w.stderr()).not.toMatch(/DeprecationWarning|Warning:/);
});
