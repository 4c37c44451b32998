import {
  Agent,
  contentText,
  ContextCompactionError,
  NetworkError,
  type AgentEvent,
  type Message,
  type UserMessage,
} from '@rxagent/core';
import { errorTurn, scriptedModel, textTurn } from '@rxagent/testing';
import { CHECKPOINT_HEADER } from './checkpoint.js';
import { contextEngine } from './context-engine.js';
import { checkpointWriter, fileTools, workingModel, workingTurns } from './context-fixtures.test.js';

const GOAL = 'Migrate the tests to the new runner.';

function agentWith(steps: number, summaryModel = checkpointWriter(), contextWindow = 8_000) {
  const model = workingModel(steps);
  const keepRecentTokens = contextWindow > 8_000 ? 2_000 : undefined;
  const engine = contextEngine({ model, contextWindow, summaryModel, retryDelayMs: 0, keepRecentTokens });
  const agent = new Agent({ model, tools: fileTools(), maxSteps: steps + 1, contextManager: engine });
  const events: AgentEvent[] = [];
  agent.subscribe((event) => events.push(event));
  return { agent, engine, model, events, summaryModel };
}

describe('Agent with contextEngine', () => {
  it('exposes how full the context is: agent.contextUsage() and state$.value.contextUsage', async () => {
    const { agent, engine } = agentWith(60);
    expect(agent.contextUsage()).toBeUndefined();
    await agent.prompt(GOAL);
    const usage = agent.contextUsage();
    expect(usage).toEqual(engine.usage());
    expect(agent.state$.value.contextUsage).toEqual(usage);
    expect(usage).toMatchObject({ contextWindow: 8_000, reserveTokens: 2_000 });
    expect(usage?.tokens).toBeLessThanOrEqual(6_000);
    expect(usage?.droppedTokens).toBeGreaterThan(0);
    expect(agent.state$.value.compacting).toBeUndefined();
  });

  it('counts the summary calls in the agent usage (state fold and run result)', async () => {
    const { agent, summaryModel } = agentWith(60);
    const result = await agent.prompt(GOAL);
    expect(summaryModel.calls).toBeGreaterThan(0);
    expect(result.usage.inputTokens).toBe(1_000 * summaryModel.calls);
    expect(agent.usage.inputTokens).toBe(1_000 * summaryModel.calls);
  });

  it('compact() rewrites the transcript: goal, checkpoint, the recent part verbatim', async () => {
    const { agent, events, summaryModel } = agentWith(20, checkpointWriter(), 200_000);
    await agent.prompt(GOAL);
    expect(summaryModel.calls).toBe(0);
    const before = agent.messages;
    const info = await contextEngineCompact(agent);
    expect(info).toMatchObject({ strategy: 'summary', summarized: expect.any(Number) });
    const after = agent.messages;
    expect(after.length).toBeLessThan(before.length);
    expect(after[0]).toBe(before[0]);
    const checkpoint = after[1] as Message;
    expect(checkpoint.role).toBe('user');
    expect(contentText(checkpoint as UserMessage)).toContain(CHECKPOINT_HEADER);
    expect(contentText(checkpoint as UserMessage)).toContain('src/file-0.ts (read)');
    expect(after.slice(2)).toEqual(before.slice(before.length - (after.length - 2)));
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['summary-start', 'summary-update', 'compaction']),
    );
  });

  it('updates a committed checkpoint on the next compaction instead of starting over', async () => {
    const summaryModel = checkpointWriter();
    const { agent } = agentWith(20, summaryModel, 200_000);
    await agent.prompt(GOAL);
    await contextEngineCompact(agent);
    agent.importMessages([
      ...agent.messages,
      { role: 'user', content: `Step 99: a long note. ${'z'.repeat(12_000)}`, timestamp: 0 },
      { role: 'user', content: 'Go on.', timestamp: 0 },
    ]);
    const info = await contextEngineCompact(agent);
    expect(info?.strategy).toBe('summary-update');
    const second = summaryModel.requests[1]?.messages[0]?.content as string;
    expect(second).toContain('<checkpoint>');
    expect(second).not.toContain('Step 0:');
  });

  it('keeps the engine state across prompts: the next run updates the summary the last one wrote', async () => {
    const model = scriptedModel([...workingTurns(60), ...workingTurns(60)]);
    const summaryModel = checkpointWriter();
    const engine = contextEngine({ model, contextWindow: 8_000, summaryModel });
    const agent = new Agent({ model, tools: fileTools(), maxSteps: 61, contextManager: engine });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    const summaries = () =>
      events.flatMap((e) =>
        e.type === 'compaction' && e.strategy.startsWith('summary') ? [e.strategy] : [],
      );
    await agent.prompt(GOAL);
    const first = summaries();
    expect(first[0]).toBe('summary');
    await agent.prompt('Now the same for lib/.');
    const second = summaries().slice(first.length);
    expect(second.length).toBeGreaterThan(0);
    expect(second.every((s) => s === 'summary-update')).toBe(true);
    expect(engine.snapshot().checkpoint).toMatch(/^## Goal\n/);
  });

  it('cancels the summary call with the run (abort mid-summary) and keeps the transcript', async () => {
    // The first delta comes at once, the rest only after a minute: the abort lands in between.
    const slowSummary = scriptedModel([textTurn('## Goal\nx', { chunks: ['## Goal', '\nx'] })], {
      latency: { firstMs: 1, perEventMs: 60_000 },
    });
    const { agent, events } = agentWith(60, slowSummary);
    agent.subscribe((event) => event.type === 'summary-update' && agent.abort());
    const result = await agent.prompt(GOAL);
    expect(result.reason).toBe('user-requested');
    expect(slowSummary.calls).toBe(1);
    expect(slowSummary.cancelled).toBe(1);
    expect(events.some((e) => e.type === 'compaction' && e.strategy.startsWith('summary'))).toBe(false);
    expect(agent.messages[0]).toMatchObject({ role: 'user', content: GOAL });
    expect(
      agent.messages.some((m) => m.role === 'user' && contentText(m).startsWith(CHECKPOINT_HEADER)),
    ).toBe(false);
  });

  it('fails prompt() with ContextCompactionError when the summary keeps failing, losing no message', async () => {
    const failing = scriptedModel([1, 2, 3].map(() => errorTurn(new NetworkError('socket hang up'))));
    const { agent, events } = agentWith(60, failing);
    const error: unknown = await agent.prompt(GOAL).catch((e: unknown) => e);
    expect(ContextCompactionError.isInstance(error)).toBe(true);
    expect(failing.calls).toBe(3);
    const ended = events.filter((e) => e.type === 'message-end').length;
    expect(agent.messages).toHaveLength(ended);
    expect((error as ContextCompactionError).transcript).toEqual(agent.messages);
    expect(agent.state$.value.phase).toBe('error');
  });
});

function contextEngineCompact(agent: Agent) {
  return agent.compact();
}
