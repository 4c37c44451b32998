import { z } from 'zod';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import type { AgentEndEvent, AgentEvent, TurnEndEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import type { Usage } from '../messages/types.js';
import { addUsage, emptyUsage } from '../messages/usage.js';
import { costBudget } from '../stop/stop-conditions.js';
import { tool } from '../tools/tool.js';
import { modelPrice, usageCost } from './model-price.js';
import { MODEL_PRICES, PRICES_CHECKED_ON } from './model-prices.js';

const tokens = (u: Partial<Usage>): Usage => {
  const all = { ...emptyUsage(), ...u };
  return { ...all, totalTokens: all.inputTokens + all.outputTokens };
};
const noop = tool({ name: 'noop', description: 'noop', parameters: z.object({}), execute: () => 'ok' });
const sonnet = { provider: 'anthropic', model: 'claude-sonnet-4-5-20250929' };
const assistantMessages = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'message-end' && e.message.role === 'assistant' ? [e.message] : []));
const warnings = (events: AgentEvent[]) => events.filter((e) => e.type === 'warning');

describe('the price table', () => {
  it('says when it was checked and where every price comes from', () => {
    expect(PRICES_CHECKED_ON).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const [provider, models] of Object.entries(MODEL_PRICES)) {
      for (const [id, price] of Object.entries(models)) {
        expect({ provider, id, source: typeof price.source }).toEqual({ provider, id, source: 'string' });
        expect(price.inputPerMillion).toBeGreaterThan(0);
        expect(price.outputPerMillion).toBeGreaterThan(price.inputPerMillion);
      }
    }
  });

  it('finds dated snapshot ids by their base id, and nothing for a model it does not know', () => {
    expect(modelPrice('anthropic', 'claude-sonnet-4-5-20250929')).toBe(
      MODEL_PRICES.anthropic?.['claude-sonnet-4-5'],
    );
    expect(modelPrice('openai', 'gpt-4o-2024-08-06')).toBe(MODEL_PRICES.openai?.['gpt-4o']);
    expect(modelPrice('openai', 'gpt-4o-audio-preview')).toBeUndefined();
    expect(modelPrice('anthropic', 'gpt-4o')).toBeUndefined();
    expect(modelPrice('openai', 'toString')).toBeUndefined();
  });

  it('prices Gemini: cached input at its rate, thinking as output, 2.5 Pro above 200K at its long rates', () => {
    const flash = modelPrice('google', 'gemini-2.5-flash');
    if (!flash) throw new Error('missing');
    // 100k prompt (60k cached) and 10k output (thinking included): 40k × $0.30 + 60k × $0.03 + 10k × $2.50.
    const usage = tokens({ inputTokens: 100_000, cacheReadTokens: 60_000, outputTokens: 10_000 });
    expect(usageCost(usage, flash)).toBeCloseTo(0.012 + 0.0018 + 0.025, 10);
    const pro = modelPrice('google', 'gemini-2.5-pro');
    if (!pro) throw new Error('missing');
    expect(usageCost(tokens({ inputTokens: 300_000, outputTokens: 1_000 }), pro)).toBeCloseTo(
      (300_000 * 2.5 + 1_000 * 15) / 1e6,
      10,
    );
    expect(modelPrice('google', 'gemini-3-pro-preview')?.source).toContain('2026-11-28');
    expect(modelPrice('openai', 'gemini-2.5-pro')).toBeUndefined();
  });

  it('lets given prices win, provider/model before model', () => {
    const own = { inputPerMillion: 1, outputPerMillion: 2 };
    const scoped = { inputPerMillion: 3, outputPerMillion: 4 };
    expect(modelPrice('openai', 'gpt-4o', { 'gpt-4o': own })).toBe(own);
    expect(modelPrice('openai', 'gpt-4o', { 'gpt-4o': own, 'openai/gpt-4o': scoped })).toBe(scoped);
    expect(modelPrice('local', 'my-model-20250101', { 'my-model': own })).toBe(own);
  });

  it('prices uncached input, cache reads, cache writes and output each at their rate', () => {
    const price = MODEL_PRICES.anthropic?.['claude-sonnet-4-5'];
    if (!price) throw new Error('missing');
    const usage = tokens({
      inputTokens: 100_000,
      cacheReadTokens: 60_000,
      cacheWriteTokens: 20_000,
      outputTokens: 10_000,
    });
    // 20k uncached × $3 + 60k × $0.30 + 20k × $3.75 + 10k × $15, per million.
    expect(usageCost(usage, price)).toBeCloseTo(0.06 + 0.018 + 0.075 + 0.15, 10);
  });

  it('switches every token of a request to the long-context rates above the threshold', () => {
    const price = MODEL_PRICES.anthropic?.['claude-sonnet-4-5'];
    if (!price) throw new Error('missing');
    expect(usageCost(tokens({ inputTokens: 200_000, outputTokens: 1_000 }), price)).toBeCloseTo(
      0.6 + 0.015,
      10,
    );
    expect(usageCost(tokens({ inputTokens: 200_001, outputTokens: 1_000 }), price)).toBeCloseTo(
      (200_001 * 6 + 1_000 * 22.5) / 1e6,
      10,
    );
  });
});

describe('usage.costUsd in a run', () => {
  it('is filled on every assistant message, every turn-end step and the total', async () => {
    const model = scriptedModel([
      toolCallTurn({ name: 'noop' }, { ...sonnet, usage: { inputTokens: 1_000, outputTokens: 100 } }),
      textTurn('Done.', {
        ...sonnet,
        usage: { inputTokens: 2_000, cacheReadTokens: 1_000, outputTokens: 50 },
      }),
    ]);
    const events = await collectEvents(runAgent({ model, prompt: 'go', tools: [noop] }));
    const first = (1_000 * 3 + 100 * 15) / 1e6;
    const second = (1_000 * 3 + 1_000 * 0.3 + 50 * 15) / 1e6;
    expect(assistantMessages(events).map((m) => m.usage.costUsd)).toEqual([
      expect.closeTo(first, 12),
      expect.closeTo(second, 12),
    ]);
    const steps = events.filter((e): e is TurnEndEvent => e.type === 'turn-end');
    expect(steps.map((e) => e.step.usage.costUsd)).toEqual([
      expect.closeTo(first, 12),
      expect.closeTo(second, 12),
    ]);
    const end = events.at(-1) as AgentEndEvent;
    expect(end.usage.costUsd).toBeCloseTo(first + second, 12);
    expect(warnings(events)).toEqual([]);
  });

  it('warns once per unknown model of a priced provider and never gives a number for it', async () => {
    const unknown = { provider: 'openai', model: 'gpt-unreleased' };
    const model = scriptedModel([
      toolCallTurn({ name: 'noop' }, { ...unknown, usage: { inputTokens: 10, outputTokens: 1 } }),
      toolCallTurn({ name: 'noop' }, { ...unknown, usage: { inputTokens: 10, outputTokens: 1 } }),
      textTurn('Done.', { ...unknown, usage: { inputTokens: 10, outputTokens: 1 } }),
    ]);
    const events = await collectEvents(runAgent({ model, prompt: 'go', tools: [noop] }));
    expect(warnings(events)).toEqual([
      { type: 'warning', message: expect.stringContaining('No price for openai model "gpt-unreleased"') },
    ]);
    expect(assistantMessages(events).map((m) => m.usage.costUsd)).toEqual([undefined, undefined, undefined]);
    expect((events.at(-1) as AgentEndEvent).usage.costUsd).toBeUndefined();
  });

  it('leaves the total out when one call of the run is unpriced', async () => {
    const model = scriptedModel([
      toolCallTurn({ name: 'noop' }, { ...sonnet, usage: { inputTokens: 10, outputTokens: 1 } }),
      textTurn('Done.', {
        provider: 'anthropic',
        model: 'claude-unknown',
        usage: { inputTokens: 10, outputTokens: 1 },
      }),
    ]);
    const events = await collectEvents(runAgent({ model, prompt: 'go', tools: [noop] }));
    expect(assistantMessages(events)[0]?.usage.costUsd).toBeGreaterThan(0);
    expect((events.at(-1) as AgentEndEvent).usage.costUsd).toBeUndefined();
    expect(warnings(events)).toHaveLength(1);
  });

  it('stays silent for providers without a table unless the run was given prices', async () => {
    const events = await collectEvents(runAgent({ model: scriptedModel([textTurn('Hi')]), prompt: 'go' }));
    expect(warnings(events)).toEqual([]);
    const priced = await collectEvents(
      runAgent({
        model: scriptedModel([textTurn('Hi', { usage: { inputTokens: 1_000_000, outputTokens: 0 } })]),
        prompt: 'go',
        prices: { 'test-model': { inputPerMillion: 0.5, outputPerMillion: 1 } },
      }),
    );
    expect((priced.at(-1) as AgentEndEvent).usage.costUsd).toBeCloseTo(0.5, 12);
  });

  it('keeps a cost the provider reported', async () => {
    const model = scriptedModel([textTurn('Hi', { ...sonnet, usage: { inputTokens: 10, costUsd: 42 } })]);
    const events = await collectEvents(runAgent({ model, prompt: 'go' }));
    expect(assistantMessages(events)[0]?.usage.costUsd).toBe(42);
  });

  it('lets costBudget(usd) stop a run with no prices passed', async () => {
    const turn = () =>
      toolCallTurn({ name: 'noop' }, { ...sonnet, usage: { inputTokens: 100_000, outputTokens: 0 } });
    const model = scriptedModel([turn(), turn(), turn(), turn(), textTurn('never')]);
    const events = await collectEvents(
      runAgent({ model, prompt: 'go', tools: [noop], stopWhen: costBudget(0.5) }),
    );
    // $0.30 per call: over $0.50 after the second.
    expect(events.at(-1)).toMatchObject({
      type: 'agent-end',
      reason: 'token-limit',
      steps: 2,
      signal: { source: 'costBudget', context: { costUsd: expect.closeTo(0.6, 12), maxUsd: 0.5 } },
    });
  });
});

describe('addUsage', () => {
  it('sums costs only when both sides are priced (an empty record costs nothing)', () => {
    const priced = { ...tokens({ inputTokens: 1 }), costUsd: 1 };
    expect(addUsage(emptyUsage(), priced).costUsd).toBe(1);
    expect(addUsage(priced, priced).costUsd).toBe(2);
    expect(addUsage(priced, tokens({ inputTokens: 1 })).costUsd).toBeUndefined();
  });
});

describe('the prices option', () => {
  it.each([
    [{ m: { inputPerMillion: -1, outputPerMillion: 2 } }, 'prices["m"].inputPerMillion'],
    [{ m: { inputPerMillion: 1 } }, 'prices["m"].outputPerMillion'],
    [
      { m: { inputPerMillion: 1, outputPerMillion: 2, cacheReadPerMillion: '0.1' } },
      'prices["m"].cacheReadPerMillion',
    ],
    [
      {
        m: {
          inputPerMillion: 1,
          outputPerMillion: 2,
          longContext: { inputPerMillion: 2, outputPerMillion: 4 },
        },
      },
      'aboveInputTokens',
    ],
    [[], 'prices'],
  ])('refuses %j before any call, naming %s', async (prices, key) => {
    const model = scriptedModel([textTurn('Hi')]);
    const run$ = runAgent({ model, prompt: 'go', prices: prices as never });
    await expect(collectEvents(run$)).rejects.toThrow(key);
    expect(model.requests).toHaveLength(0);
  });
});
