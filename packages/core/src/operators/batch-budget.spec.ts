import { z } from 'zod';
import { map, Observable, timer } from 'rxjs';
import {
  assistantMessage,
  createTestScheduler,
  scriptedModel,
  textTurn,
  toolCallTurn,
} from '@rxagent/testing';
import type { AgentEndEvent, AgentEvent } from '../events/agent-event.js';
import { contentText } from '../messages/message-helpers.js';
import type { ToolResultMessage } from '../messages/types.js';
import { runAgent } from '../loop/run-agent.js';
import { and, not, or } from '../stop/combinators.js';
import { costBudget, stepCountIs, timeBudget, tokenBudget } from '../stop/stop-conditions.js';
import { isUsageBudget } from '../stop/usage-budget.js';
import { tool } from '../tools/tool.js';
import { CANCELLED_FOR_BUDGET_TEXT, SKIPPED_FOR_BUDGET_TEXT } from './batch-budget.js';

// The run's budgets checked while a batch runs: a tool result that reports usage past the
// budget cuts the calls still running and skips those not started.

const usage = (totalTokens: number) => ({
  inputTokens: totalTokens,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  totalTokens,
});

function run(stopWhen: Parameters<typeof runAgent>[0]['stopWhen']) {
  const events: [number, AgentEvent][] = [];
  const aborted: string[] = [];
  const started: string[] = [];
  const scheduler = createTestScheduler();
  scheduler.run(({ flush }) => {
    // `costly` reports 800 tokens it spent on the run's behalf after 10 ms; `slow` takes 100 ms.
    const costly = tool({
      name: 'costly',
      description: 'costly',
      parameters: z.object({}),
      execute: (_a, ctx) => {
        started.push('costly');
        return timer(10, ctx.scheduler).pipe(
          map(() => ({ content: [{ type: 'text' as const, text: 'paid' }], usage: usage(800) })),
        );
      },
    });
    const slow = tool({
      name: 'slow',
      description: 'slow',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }, ctx) => {
        started.push(`slow${n}`);
        ctx.signal.addEventListener('abort', () => aborted.push(`slow${n}`));
        return timer(100, ctx.scheduler).pipe(map(() => 'slow done'));
      },
    });
    const model = scriptedModel([
      toolCallTurn(
        [
          { name: 'costly', args: {} },
          { name: 'slow', args: { n: 1 } },
          { name: 'slow', args: { n: 2 } },
        ],
        { usage: { inputTokens: 100, outputTokens: 0 } },
      ),
      textTurn('done'),
    ]);
    runAgent({ model, tools: [costly, slow], prompt: 'go', toolConcurrency: 2, stopWhen }).subscribe((e) =>
      events.push([scheduler.now(), e]),
    );
    flush();
  });
  return { events, aborted, started };
}

describe('budgets checked while the calls run', () => {
  it('a result whose usage passes the budget cuts the running calls and skips the rest; the run ends with token-limit', () => {
    const { events, aborted, started } = run(tokenBudget(500));
    const [at, end] = events.at(-1) as [number, AgentEndEvent];
    expect(at).toBe(10);
    expect(end).toMatchObject({ type: 'agent-end', reason: 'token-limit', usage: { totalTokens: 900 } });
    expect(started).toEqual(['costly', 'slow1']);
    expect(aborted).toEqual(['slow1']);
    const results = end.messages.filter((m): m is ToolResultMessage => m.role === 'tool').map(contentText);
    expect(results).toEqual(['paid', CANCELLED_FOR_BUDGET_TEXT, SKIPPED_FOR_BUDGET_TEXT]);
  });

  it('without a budget the same batch runs to its end (stepCountIs is checked after the tools)', () => {
    const { events, aborted, started } = run(stepCountIs(1));
    const [at, end] = events.at(-1) as [number, AgentEndEvent];
    expect(at).toBe(110);
    expect(end).toMatchObject({ reason: 'steps-limit', usage: { totalTokens: 900 } });
    expect(started).toEqual(['costly', 'slow1', 'slow2']);
    expect(aborted).toEqual([]);
  });

  it('a synchronous Observable tool reporting sub-run spending stops inside its own emission (nothing after the stop)', () => {
    const reported: number[] = [];
    const spender = tool({
      name: 'spender',
      description: 'runs a synchronous sub-run of 4 steps of 400 tokens',
      parameters: z.object({}),
      execute: (_a, ctx) =>
        new Observable<string>((subscriber) => {
          for (let step = 1; step <= 4 && !subscriber.closed; step++) {
            reported.push(step);
            const message = {
              ...assistantMessage([{ type: 'text', text: `step ${step}` }]),
              usage: usage(400),
            };
            ctx.emitSubrun?.({ agent: 'inner', runId: 'inner-1' }, { type: 'message-end', message });
          }
          subscriber.next('all steps');
          subscriber.complete();
        }),
    });
    const model = scriptedModel([
      toolCallTurn({ name: 'spender', args: {} }, { usage: { inputTokens: 100, outputTokens: 0 } }),
      textTurn('done'),
    ]);
    let end: AgentEndEvent | undefined;
    runAgent({ model, tools: [spender], prompt: 'go', stopWhen: tokenBudget(1000) }).subscribe((e) => {
      if (e.type === 'agent-end') end = e;
    });
    expect(reported).toEqual([1, 2, 3]);
    expect(end).toMatchObject({ reason: 'token-limit', usage: { totalTokens: 1300 } });
  });

  it('marks budgets, and or / and of budgets only, as checked mid-step', () => {
    expect(isUsageBudget(tokenBudget(1))).toBe(true);
    expect(isUsageBudget(costBudget(1))).toBe(true);
    expect(isUsageBudget(or(tokenBudget(1), costBudget(1)))).toBe(true);
    expect(isUsageBudget(and(tokenBudget(1), costBudget(1)))).toBe(true);
    expect(isUsageBudget(or(tokenBudget(1), stepCountIs(2)))).toBe(false);
    expect(isUsageBudget(not(tokenBudget(1)))).toBe(false);
    expect(isUsageBudget(timeBudget(1))).toBe(false);
    expect(isUsageBudget(() => true)).toBe(false);
  });
});
