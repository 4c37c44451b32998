import {
  Agent,
  contentText,
  ContextCompactionError,
  runAgent,
  type AgentEvent,
  type AgentMessage,
  type ChatRequest,
  type UserMessage,
} from '@rxagent/core';
import { collectEvents, scriptedModel, settleRun, textTurn } from '@rxagent/testing';
import { CHECKPOINT_HEADER } from './checkpoint.js';
import { contextEngine } from './context-engine.js';
import { checkpointWriter, fileTools, workingModel } from './context-fixtures.test.js';
import { CHARS_PER_TOKEN, estimateAll } from './estimate-tokens.js';

// Issue #28, defect 5: the context engine must not overfill the window, whatever the summary
// model writes, and must not send silently a context that still does not fit.

const GOAL = 'Refactor every file under src/ to the new API.';
/** ~55,000 tokens: what a summary model that ignores its output limit writes. */
const RAMBLING = `## Goal\n${GOAL}\n## Progress\n${'Read a file and thought about it at length. '.repeat(5_000)}`;

/** A summary model ignoring `maxTokens`: each call streams RAMBLING in 1,000-character deltas. */
function ramblingSummaryModel() {
  return scriptedModel(
    Array.from({ length: 40 }, () =>
      textTurn(RAMBLING, { chunks: 1_000, usage: { inputTokens: 1_000, outputTokens: 55_000 } }),
    ),
    { modelId: 'rambling-summary' },
  );
}

const summaryOf = (checkpoint: string) =>
  checkpoint.slice(CHECKPOINT_HEADER.length, checkpoint.lastIndexOf('\n## Files touched'));

describe('a summary model that writes far more than asked', () => {
  const steps = 60;
  let model: ReturnType<typeof workingModel>;
  let summaries: ReturnType<typeof ramblingSummaryModel>;
  let engine: ReturnType<typeof contextEngine>;
  let events: AgentEvent[];

  beforeAll(async () => {
    model = workingModel(steps);
    summaries = ramblingSummaryModel();
    engine = contextEngine({ model, contextWindow: 8_000, summaryModel: summaries });
    events = await collectEvents(
      runAgent({ model, prompt: GOAL, tools: fileTools(), maxSteps: steps + 1, contextManager: engine }),
    );
  });

  it('was asked for at most summaryMaxTokens, and ignored it', () => {
    expect(summaries.calls).toBeGreaterThan(0);
    for (const request of summaries.requests)
      expect(request.maxTokens).toBe(engine.settings.summaryMaxTokens);
    expect(RAMBLING.length / CHARS_PER_TOKEN).toBeGreaterThan(50 * engine.settings.summaryMaxTokens);
  });

  it('has its summary clipped to summaryMaxTokens, with a note saying so', () => {
    const maxChars = engine.settings.summaryMaxTokens * CHARS_PER_TOKEN;
    const checkpoints = model.requests
      .map((r) => r.messages[1])
      .filter((m): m is UserMessage => m?.role === 'user' && contentText(m).startsWith(CHECKPOINT_HEADER))
      .map((m) => contentText(m));
    expect(checkpoints.length).toBeGreaterThan(0);
    for (const checkpoint of checkpoints) {
      const summary = summaryOf(checkpoint);
      expect(summary.length).toBeLessThanOrEqual(maxChars + 2);
      expect(summary).toContain('## Goal');
      expect(summary).toMatch(/summary cut at 1000 tokens/);
    }
    // What streams as summary-update is clipped the same way.
    const deltas = events
      .filter((e) => e.type === 'summary-update')
      .map((e) => (e as { delta: string }).delta);
    const perSummary = deltas.join('').length / summaries.calls;
    expect(perSummary).toBeLessThanOrEqual(maxChars);
  });

  it('keeps every call and every compaction inside the window minus the reserve', () => {
    const budget = engine.settings.contextWindow - engine.settings.reserveTokens;
    for (const request of model.requests) expect(estimateAll(request.messages)).toBeLessThanOrEqual(budget);
    const compactions = events.filter((e) => e.type === 'compaction');
    expect(compactions.length).toBeGreaterThan(0);
    for (const c of compactions) expect(c).toMatchObject({ tokensAfter: expect.any(Number) });
    for (const c of compactions)
      expect((c as { tokensAfter: number }).tokensAfter).toBeLessThanOrEqual(budget);
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  });
});

describe('a projection that still does not fit', () => {
  it('fails the run with ContextCompactionError before the call, keeping the transcript', async () => {
    const model = scriptedModel([textTurn('Read it.')]);
    const prompt = `Read this: ${'p'.repeat(40_000)}`; // ~10,000 tokens in an 8,000 window
    const { events, error } = await settleRun(
      runAgent({ model, prompt, contextManager: contextEngine({ model, contextWindow: 8_000 }) }),
    );
    expect(ContextCompactionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /does not fit: 1000\d tokens .* 6000 .*contextWindow.*reserveTokens.*largest message/s,
    );
    expect(model.calls).toBe(0);
    expect((error as ContextCompactionError).transcript).toEqual([
      expect.objectContaining({ content: prompt }),
    ]);
    expect(events.some((e) => e.type === 'context-usage')).toBe(false);
  });

  it('fails after a summary when the recent part alone is too big; the Agent keeps its transcript', async () => {
    const model = scriptedModel([textTurn('Done.')]);
    const summaries = checkpointWriter();
    const engine = contextEngine({ model, contextWindow: 8_000, summaryModel: summaries });
    const prior: AgentMessage[] = [{ role: 'user', content: GOAL, timestamp: 0 }];
    for (let i = 0; i < 10; i++) {
      prior.push(
        { role: 'user', content: `Step ${i}: ${'s'.repeat(2_000)}`, timestamp: 0 },
        {
          role: 'assistant',
          content: [{ type: 'text', text: `Noted ${i}.` }],
          stopReason: 'stop',
          usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 },
          provider: 'test',
          model: 'test',
          timestamp: 0,
        },
      );
    }
    const agent = new Agent({ model, messages: prior, contextManager: engine });
    const huge = `And this: ${'h'.repeat(30_000)}`;
    const error: unknown = await agent.prompt(huge).catch((e: unknown) => e);
    expect(ContextCompactionError.isInstance(error)).toBe(true);
    expect(summaries.calls).toBe(1);
    expect(model.calls).toBe(0);
    expect(agent.messages).toHaveLength(prior.length + 1);
    expect(agent.messages.at(-1)).toMatchObject({ role: 'user', content: huge });
    expect((summaries.requests[0] as ChatRequest).messages).toHaveLength(1);
  });
});
