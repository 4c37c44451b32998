import type { AgentEvent } from '@rxagent/core';
import { appendedLines, durableTestbed, type WorkerProcess } from './durable-test-kit.test.js';

// A sub-agent of a durable run is a durable child run (durableSubagent): it survives its
// worker's death, and its events and spending reach the parent as they happen.

jest.setTimeout(120_000);

const bed = durableTestbed({ pollIntervalMs: 50 });
afterEach(() => bed.stopWorkers());

async function watch(
  runId: string,
  onEvent: (e: AgentEvent) => void = () => undefined,
): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  await new Promise<void>((resolve, reject) =>
    bed.runs.watchRun(runId).subscribe({
      next: (e) => {
        events.push(e);
        onEvent(e);
      },
      error: reject,
      complete: resolve,
    }),
  );
  return events;
}

it('finishes a parent and its durable child after the worker running both is killed', async () => {
  const a = await bed.worker('sub-a', { toolDelayMs: 400 });
  const id = await bed.runs.startRun({
    runId: 'sub-crash',
    model: 'delegate',
    tools: ['helper'],
    prompt: 'Delegate.',
  });
  let b: Promise<WorkerProcess> | undefined;
  const events = await watch(id, (e) => {
    // The child's second call has started: kill the worker in the middle of the child.
    if (e.type === 'subrun' && e.event.type === 'tool-start' && e.event.toolCallId === 'call_2' && !b) {
      b = (async () => {
        const started = bed.worker('sub-b', { toolDelayMs: 400 });
        await a.crash();
        return started;
      })();
    }
  });
  await b;
  expect(a.child.signalCode).toBe('SIGKILL');
  const result = await bed.runs.runResult(id);
  expect(result.reason).toBe('completed');
  expect(result.text).toBe('The helper said: Done: 3 lines appended.');
  // The child ran on its own id, each of its effects once.
  const child = 'sub-crash/call_1';
  const lines = appendedLines(bed.file).filter((l) => l.startsWith(`${child}:`));
  expect(lines.map((l) => l.split(' ')[0])).toEqual([
    `${child}:call_1`,
    `${child}:call_2`,
    `${child}:call_3`,
  ]);
  expect((await bed.runs.runResult(child)).reason).toBe('completed');
  // Its events reached the parent's stream, each once, under its path.
  const subrun = events.filter((e) => e.type === 'subrun');
  expect(subrun.every((e) => e.path[0]?.runId === child && e.path[0]?.agent === 'helper')).toBe(true);
  expect(subrun.filter((e) => e.event.type === 'agent-end')).toHaveLength(1);
  expect(
    subrun
      .filter((e) => e.event.type === 'tool-end')
      .map((e) => e.event.type === 'tool-end' && e.event.toolCallId),
  ).toEqual(['call_1', 'call_2', 'call_3']);
  // The parent's usage counts the child's spending: 2 × 1000 of its own, 100 + 101 + 102 + 103 of the child's.
  expect(result.usage.inputTokens).toBe(2406);
  // The parent's first model call was not made again.
  const parentCalls = appendedLines(`${bed.file}.calls`).filter((l) => l.startsWith('Delegate.|'));
  expect(parentCalls).toEqual(['Delegate.|0|started', 'Delegate.|1|started']);
});

it('cancels the durable children of a cancelled run', async () => {
  await bed.worker('sub-cancel-a', { toolDelayMs: 5000 });
  const id = await bed.runs.startRun({
    runId: 'sub-cancel',
    model: 'delegate',
    tools: ['helper'],
    prompt: 'Delegate.',
  });
  let cancelled: Promise<void> | undefined;
  await watch(id, (e) => {
    if (e.type === 'subrun' && e.event.type === 'tool-start' && !cancelled) cancelled = bed.runs.cancel(id);
  });
  await cancelled;
  expect((await bed.runs.runResult(id)).reason).toBe('user-requested');
  expect(await bed.runs.status('sub-cancel/call_1')).toBe('CANCELLED');
});
