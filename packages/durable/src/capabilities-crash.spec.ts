import type { AgentEvent } from '@rxagent/core';
import { appendedLines, durableTestbed, type WorkerProcess } from './durable-test-kit.test.js';

// A run that uses steering, a follow-up, guardrails and a context manager, its worker killed
// with SIGKILL while it waits for an approval: another worker finishes it with the same
// transcript, and nothing recorded is done again (no guardrail check, no projection, no model
// call, no tool effect twice).

jest.setTimeout(120_000);

const bed = durableTestbed({ pollIntervalMs: 50 });

it('finishes a run with steering, a follow-up, guardrails and compaction on another worker after kill -9', async () => {
  const a = await bed.worker('capcrash-a', {});
  const id = await bed.runs.startRun({
    runId: 'cap-crash',
    model: 'plan-approval',
    tools: ['keyed_append', 'guarded_append'],
    prompt: 'Append the lines (cap-crash).',
    inputGuardrails: ['no-secrets'],
    outputGuardrails: ['no-shouting'],
    contextManager: 'trim',
  });
  const events: AgentEvent[] = [];
  let killed: Promise<WorkerProcess> | undefined;
  await new Promise<void>((resolve, reject) =>
    bed.runs.watchRun(id).subscribe({
      next: (e) => {
        events.push(e);
        if (e.type !== 'approval-request' || killed) return;
        killed = (async () => {
          expect(await bed.runs.steer(id, 'Also log the time.')).toBe(true);
          expect(await bed.runs.followUp(id, 'Now summarize.')).toBe(true);
          const b = await bed.worker('capcrash-b', {});
          await a.crash();
          expect(await bed.runs.approve(id, e.toolCallId)).toBe(true);
          return b;
        })();
      },
      error: reject,
      complete: resolve,
    }),
  );
  await killed;
  expect(a.child.signalCode).toBe('SIGKILL');
  const result = await bed.runs.runResult(id);
  expect(result.reason).toBe('completed');
  expect(
    result.messages.map((m) => (m.role === 'user' && typeof m.content === 'string' ? m.content : m.role)),
  ).toEqual([
    'Append the lines (cap-crash).',
    'assistant',
    'tool',
    'assistant',
    'tool',
    'Also log the time.',
    'assistant',
    'tool',
    'assistant',
    'Now summarize.',
    'assistant',
  ]);
  // Each tool effect once; each model call made once (step 2's came from its record).
  // (keyed_append writes `<run>:<call> line`, the guarded one `<run> <call> line`.)
  const effects = appendedLines(bed.file).map((l) => /call_\d+/.exec(l)?.[0]);
  expect(effects).toEqual(['call_1', 'call_2', 'call_3']);
  const calls = appendedLines(`${bed.file}.calls`).filter((l) => l.endsWith('|started'));
  expect(calls).toHaveLength(5);
  // Each projection made once (steps 1 to 5), compaction from step 2 on.
  expect(appendedLines(`${bed.file}.context`)).toEqual(['1', '2', '3', '4', '5']);
  expect(events.filter((e) => e.type === 'compaction')).toHaveLength(4);
  // The input guardrail checked once; the output guardrail once per final answer.
  expect(appendedLines(`${bed.file}.guards`)).toEqual([
    'no-secrets cap-crash',
    'no-shouting cap-crash',
    'no-shouting cap-crash',
  ]);
});
