// Random runs for the property test of this package (not a test file itself: jest runs *.spec.ts).
import fc from 'fast-check';
import { z } from 'zod';
import { RateLimitError, tool, type AnyTool, type MessageQueue } from '@rxagent/core';
import { textTurn, toolCallTurn, type ScriptedTurn } from '@rxagent/testing';
import type { RunLog } from './run-log.js';

/** One step of a random run: what the model answers (and whether its first attempt fails). */
export interface StepPlan {
  calls: { tool: 'echo' | 'fail' | 'ask' | 'steer' | 'follow' | 'subagent'; arg: number }[];
  retry: boolean;
}

/** The queues a run listens to. */
export interface Queues {
  steering: MessageQueue;
  followUps: MessageQueue;
}

/**
 * The tools of a run. While `steer` and `follow` run in the original, a person sends a steering
 * message or queues a follow-up (into the queues the run listens to); run again (a fork, a suite)
 * they only answer: the messages are the recording's to deliver again.
 */
export function toolsFor(
  queues: () => Queues | undefined,
  executions: { count: number },
  long: boolean,
): AnyTool[] {
  const args = z.object({ n: z.number() });
  const counted =
    <T>(f: (n: number) => T) =>
    ({ n }: { n: number }): T => {
      executions.count++;
      return f(n);
    };
  return [
    tool({
      name: 'echo',
      description: 'echo',
      parameters: args,
      // Long results fill a small context window: the context engine compacts.
      execute: counted((n) => `echo ${n}${long ? ` ${'x'.repeat(12_000)}` : ''}`),
    }),
    tool({
      name: 'fail',
      description: 'fail',
      parameters: args,
      execute: counted((n) => {
        throw new Error(`failed ${n}`);
      }),
    }),
    tool({
      name: 'ask',
      description: 'ask',
      parameters: args,
      needsApproval: true,
      execute: counted((n) => `asked ${n}`),
    }),
    tool({
      name: 'steer',
      description: 'steer',
      parameters: args,
      execute: counted((n) => {
        queues()?.steering.push(`also look at ${n}`);
        return 'queued';
      }),
    }),
    tool({
      name: 'follow',
      description: 'follow',
      parameters: args,
      execute: counted((n) => {
        queues()?.followUps.push(`then report ${n}`);
        return 'noted';
      }),
    }),
  ];
}

/** The model's turns for a plan: each step (after a failed attempt when it retries), then the answer. */
export function turnsFor(plan: readonly StepPlan[], structured: boolean, compact: boolean): ScriptedTurn[] {
  // Usage as a small model reports it (with a context engine: none, so it estimates the transcript).
  const usage = (inputTokens: number, outputTokens: number) =>
    compact ? {} : { usage: { inputTokens, outputTokens } };
  const answer = (text: string) =>
    structured
      ? toolCallTurn({ id: `final_${text.length}`, name: 'final_answer', args: { answer: text } })
      : textTurn(text, usage(5, 1));
  const turns: ScriptedTurn[] = [];
  plan.forEach((step, i) => {
    if (step.retry) turns.push({ events: [], error: new RateLimitError('slow down', { retryAfterMs: 0 }) });
    const calls = structured && step.calls.length === 0 ? [{ tool: 'echo' as const, arg: i }] : step.calls;
    turns.push(
      calls.length === 0
        ? textTurn(`thinking ${i}`, { stopReason: 'length' })
        : toolCallTurn(
            calls.map((c, j) => ({
              id: `c${i}_${j}`,
              name: c.tool,
              args: c.tool === 'subagent' ? { agent: 'scout', task: `Find ${c.arg}.` } : { n: c.arg },
            })),
            usage(10 + i, 2),
          ),
    );
  });
  // A follow-up waits for the answer, and gets one of its own.
  turns.push(answer('All done.'), answer('Reported.'));
  return turns;
}

export const plans = fc.array(
  fc.record({
    calls: fc.array(
      fc.record({
        tool: fc.constantFrom('echo', 'fail', 'ask', 'steer', 'follow', 'subagent' as const),
        arg: fc.integer({ min: 0, max: 9 }),
      }),
      { maxLength: 2 },
    ),
    retry: fc.boolean(),
  }),
  { minLength: 1, maxLength: 4 },
);

export const modes = fc.constantFrom('interrupt' as const, 'after-turn' as const);

/** Where the run's user messages came and how each call ended, step by step. */
export function marks(log: RunLog): string[] {
  return log.events.flatMap(({ event: e }) => {
    if (e.type === 'turn-start') return [`step ${e.step}`];
    if (e.type === 'tool-end') return [`${e.toolCallId} ${e.outcome}`];
    if (e.type === 'message-end' && e.message.role === 'user')
      return [`user ${JSON.stringify(e.message.content)}`];
    return [];
  });
}
