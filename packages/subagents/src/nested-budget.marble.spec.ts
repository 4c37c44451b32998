import {
  contentText,
  initialAgentState,
  reduceAgentState,
  runAgent,
  tokenBudget,
  tool,
  type AgentEvent,
  type ToolResultMessage,
} from '@rxagent/core';
import type { AgentEndEvent } from '@rxagent/core/events';
import {
  collectEvents,
  createTestScheduler,
  marbleModel,
  scriptedModel,
  textTurn,
  toolCallTurn,
} from '@rxagent/testing';
import { timer, map } from 'rxjs';
import { z } from 'zod';
import { subagentTool } from './subagent-tool.js';
import { at } from './test-helpers.test.js';

// Budgets that nest: a sub-run draws from its parent's tokenBudget / costBudget / maxBudgetUsd
// as it spends (its spending arrives as `subrun` events); the parent's budget is checked while
// the subagent call runs, and a parent stopped by it aborts its children.

const spend = (inputTokens: number) => ({ usage: { inputTokens, outputTokens: 0 } });

/** A 50 ms lookup on the run's scheduler that records its calls and whether it was aborted. */
function lookupTool(log: { started: number[]; aborted: number }, now: () => number) {
  return tool({
    name: 'lookup',
    description: 'lookup',
    parameters: z.object({}),
    execute: (_args, ctx) => {
      log.started.push(now());
      ctx.signal.addEventListener('abort', () => log.aborted++);
      return timer(50, ctx.scheduler).pipe(map(() => 'found'));
    },
  });
}

/** The inner event types of the sub-run events at or after `from` (virtual ms). */
function subrunEventsAfter(events: readonly [number, AgentEvent][], from: number): string[] {
  return events.flatMap(([t, e]) => (e.type === 'subrun' && t > from ? [e.event.type] : []));
}

describe('budgets that nest (subagents, virtual time)', () => {
  it("a sub-run spending past the parent's tokenBudget is stopped mid-run; the parent ends with token-limit", () => {
    const log = { started: [] as number[], aborted: 0 };
    const events: [number, AgentEvent][] = [];
    let scoutRequests = 0;
    let parentRequests = 0;
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, flush }) => {
      // Each of the scout's steps spends 400 tokens and asks for the 50 ms lookup.
      const step = () => at(10, toolCallTurn({ name: 'lookup', args: {} }, spend(400)));
      const scout = marbleModel(cold, [step(), step(), step(), step(), at(0, textTurn('done'))]);
      const subagent = subagentTool({
        agents: {
          scout: { description: 'S', model: scout, tools: [lookupTool(log, () => scheduler.now())] },
        },
      });
      const parent = marbleModel(cold, [
        at(0, toolCallTurn({ name: 'subagent', args: { agent: 'scout', task: 'dig' } }, spend(100))),
        at(0, textTurn('never asked')),
      ]);
      runAgent({ model: parent, tools: [subagent], prompt: 'Go', stopWhen: tokenBudget(1000) }).subscribe(
        (e) => events.push([scheduler.now(), e]),
      );
      flush();
      scoutRequests = scout.requests.length;
      parentRequests = parent.requests.length;
    });
    // 100 (parent) + 400 at 10 + 400 at 70 + 400 at 130 = 1,300 ≥ 1,000: stopped at 130.
    const end = events.at(-1)?.[1] as AgentEndEvent;
    expect(events.at(-1)?.[0]).toBe(130);
    expect(end.type).toBe('agent-end');
    expect(end.reason).toBe('token-limit');
    expect(end.signal).toMatchObject({ reason: 'token-limit', source: 'tokenBudget' });
    expect(end.usage.totalTokens).toBe(1300);
    // Nothing of the sub-run starts after the stop: no third lookup, no fourth model call, no
    // sub-run event after the one whose spending went past the budget.
    expect(log.started).toEqual([10, 70]);
    expect(scoutRequests).toBe(3);
    expect(subrunEventsAfter(events, 130)).toEqual([]);
    const atStop = events
      .filter(([t, e]) => t === 130 && e.type === 'subrun')
      .map(([, e]) => e.type === 'subrun' && e.event.type);
    expect(atStop.at(-1)).toBe('message-end');
    // The parent's call ends with a cancelled result, in the transcript; no second parent call.
    const result = end.messages.find((m): m is ToolResultMessage => m.role === 'tool');
    expect(result && contentText(result)).toBe("Tool call was cancelled: the run's budget was spent.");
    expect(result?.isError).toBe(true);
    expect(parentRequests).toBe(1);
  });

  it("a parent stopped by its budget aborts its children: a parallel sibling's running tool sees its signal aborted", () => {
    const log = { started: [] as number[], aborted: 0 };
    const events: AgentEvent[] = [];
    let slowRequests = 0;
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, flush }) => {
      const spender = marbleModel(cold, [at(20, textTurn('spent a lot', spend(5000)))]);
      // The sibling is in its lookup (started at 5, 50 ms) when the spender goes over the budget.
      const slow = marbleModel(cold, [
        at(5, toolCallTurn({ name: 'lookup', args: {} }, spend(10))),
        at(0, textTurn('slow done')),
      ]);
      const subagent = subagentTool({
        agents: {
          spender: { description: 'spends', model: spender },
          slow: { description: 'slow', model: slow, tools: [lookupTool(log, () => scheduler.now())] },
        },
      });
      const parent = marbleModel(cold, [
        at(
          0,
          toolCallTurn(
            {
              name: 'subagent',
              args: {
                tasks: [
                  { agent: 'spender', task: 'a' },
                  { agent: 'slow', task: 'b' },
                ],
              },
            },
            spend(100),
          ),
        ),
      ]);
      runAgent({ model: parent, tools: [subagent], prompt: 'Go', stopWhen: tokenBudget(1000) }).subscribe(
        (e) => events.push(e),
      );
      flush();
      slowRequests = slow.requests.length;
    });
    const end = events.at(-1) as AgentEndEvent;
    expect(end).toMatchObject({ type: 'agent-end', reason: 'token-limit' });
    expect(end.usage.totalTokens).toBe(100 + 5000 + 10);
    expect(log).toEqual({ started: [5], aborted: 1 });
    expect(slowRequests).toBe(1);
    // The state fold counts the same spending as the run (the sub-runs' part came as subrun events).
    const state = events.reduce(reduceAgentState, initialAgentState());
    expect(state.usage.totalTokens).toBe(end.usage.totalTokens);
    expect(
      Object.values(state.subruns)
        .map((s) => s.usage.totalTokens)
        .sort(),
    ).toEqual([10, 5000]);
  });

  it('maxBudgetUsd: the parent and its sub-run priced, the cap stops the sub-run when their cost passes it', () => {
    const events: AgentEvent[] = [];
    let scoutRequests = 0;
    const prices = { 'marble-model': { inputPerMillion: 1_000, outputPerMillion: 1_000 } }; // $0.001 a token
    createTestScheduler().run(({ cold, flush }) => {
      const step = () => at(10, toolCallTurn({ name: 'noop', args: {} }, spend(300)));
      const scout = marbleModel(cold, [step(), step(), step(), at(0, textTurn('done'))]);
      const noop = tool({ name: 'noop', description: 'noop', parameters: z.object({}), execute: () => 'ok' });
      const subagent = subagentTool({
        agents: { scout: { description: 'S', model: scout, tools: [noop], prices } },
      });
      const parent = marbleModel(cold, [
        at(0, toolCallTurn({ name: 'subagent', args: { agent: 'scout', task: 'dig' } }, spend(100))),
      ]);
      runAgent({ model: parent, tools: [subagent], prompt: 'Go', prices, maxBudgetUsd: 0.5 }).subscribe((e) =>
        events.push(e),
      );
      flush();
      scoutRequests = scout.requests.length;
    });
    const end = events.at(-1) as AgentEndEvent;
    // $0.1 (parent) + $0.3 + $0.3 = $0.7 ≥ $0.5 after the scout's second call.
    expect(end).toMatchObject({
      type: 'agent-end',
      reason: 'token-limit',
      signal: { source: 'maxBudgetUsd' },
    });
    expect(end.usage.costUsd).toBeCloseTo(0.7, 10);
    expect(scoutRequests).toBe(2);
  });

  it("synchronous models and tools: the stop comes inside the sub-run's own emission, and nothing of it runs after", async () => {
    const ran: string[] = [];
    const noop = tool({
      name: 'noop',
      description: 'noop',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }) => {
        ran.push(`noop${n}`);
        return 'ok';
      },
    });
    const step = (n: number) => toolCallTurn({ name: 'noop', args: { n } }, spend(400));
    const scout = scriptedModel([step(1), step(2), step(3), step(4), textTurn('done')]);
    const subagent = subagentTool({ agents: { scout: { description: 'S', model: scout, tools: [noop] } } });
    const parent = scriptedModel([
      toolCallTurn({ name: 'subagent', args: { agent: 'scout', task: 'dig' } }, spend(100)),
      textTurn('never asked'),
    ]);
    const events = await collectEvents(
      runAgent({ model: parent, tools: [subagent], prompt: 'Go', stopWhen: tokenBudget(1000) }),
    );
    const end = events.at(-1) as AgentEndEvent;
    expect(end).toMatchObject({ type: 'agent-end', reason: 'token-limit', usage: { totalTokens: 1300 } });
    expect(ran).toEqual(['noop1', 'noop2']);
    expect(scout.requests).toHaveLength(3);
    expect(parent.requests).toHaveLength(1);
  });

  it('refuses maxBudgetUsd for a model without a price, and a cap that is not a positive number', () => {
    const model = { provider: 'marble', modelId: 'unpriced', stream: () => ({}) as never };
    const errorOf = (config: Parameters<typeof runAgent>[0]) => {
      let error: unknown;
      runAgent(config).subscribe({ error: (e: unknown) => (error = e) });
      return (error as Error | undefined)?.message;
    };
    expect(errorOf({ model, prompt: 'hi', maxBudgetUsd: 1 })).toMatch(
      /maxBudgetUsd needs the price of the run's model marble\/unpriced.*prices: \{ 'unpriced'/,
    );
    expect(
      errorOf({
        model,
        prompt: 'hi',
        maxBudgetUsd: 0,
        prices: { unpriced: { inputPerMillion: 1, outputPerMillion: 1 } },
      }),
    ).toMatch(/Invalid option maxBudgetUsd: received 0/);
  });
});
