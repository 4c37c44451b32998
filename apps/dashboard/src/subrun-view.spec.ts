import { initialAgentState, reduceAgentState, type AgentEvent, type AssistantMessage } from '@rxagent/core';
import type { RunSnapshot } from './run-snapshot.js';
import { SubrunTracker } from './subrun-view.js';

const step = (agent: string, runId: string) => ({ toolCallId: 'c1', agent, runId });
const subrun = (path: ReturnType<typeof step>[], event: AgentEvent): AgentEvent => ({
  type: 'subrun',
  toolCallId: 'c1',
  path,
  event,
});
const answer = (tokens: number): AssistantMessage => ({
  role: 'assistant',
  content: [{ type: 'tool-call', id: 'x', name: 'read', args: { path: 'a.ts' } }],
  stopReason: 'tool-calls',
  usage: {
    inputTokens: tokens,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    totalTokens: tokens,
  },
  provider: 'test',
  model: 'm',
  timestamp: 0,
});

const snapshot = (ids: string[]): RunSnapshot =>
  ({
    activeTools: ids.map((toolCallId) => ({ toolCallId, toolName: 'subagent', args: '{}' })),
  }) as unknown as RunSnapshot;

describe('SubrunTracker', () => {
  it('nests each sub-run under its call, its line from its events and its numbers from the state fold', () => {
    const scout = [step('scout', 'r/c1/0')];
    const inner = [step('scout', 'r/c1/0'), { toolCallId: 'c9', agent: 'inner', runId: 'r/c1/0/c9/0' }];
    const writer = [step('writer', 'r/c1/1')];
    const events: AgentEvent[] = [
      { type: 'agent-start', runId: 'r' },
      subrun(scout, { type: 'agent-start', runId: 'r/c1/0' }),
      subrun(scout, { type: 'turn-start', step: 1 }),
      subrun(writer, { type: 'agent-start', runId: 'r/c1/1' }),
      subrun(scout, { type: 'message-end', message: answer(40) }),
      subrun(scout, { type: 'tool-start', toolCallId: 'x', toolName: 'read', args: { path: 'a.ts' } }),
      subrun(inner, { type: 'agent-start', runId: 'r/c1/0/c9/0' }),
    ];
    const tracker = new SubrunTracker();
    let state = initialAgentState();
    const changed = events.map((e) => {
      state = reduceAgentState(state, e);
      return tracker.see(e);
    });
    expect(changed.slice(1)).toEqual([true, true, true, true, true, true]);
    expect(state.usage.totalTokens).toBe(40);

    const nested = tracker.nest(snapshot(['c1', 'c2']), state.subruns);
    expect(nested.activeTools[0]?.subruns).toEqual([
      {
        runId: 'r/c1/0',
        agent: 'scout',
        path: ['scout'],
        step: 1,
        tool: 'read',
        summary: 'scout → read {"path":"a.ts"}',
        tokens: 40,
        state: 'running',
      },
      {
        runId: 'r/c1/0/c9/0',
        agent: 'inner',
        path: ['scout', 'inner'],
        step: 0,
        summary: 'inner started',
        tokens: 0,
        state: 'running',
      },
      {
        runId: 'r/c1/1',
        agent: 'writer',
        path: ['writer'],
        step: 0,
        summary: 'writer started',
        tokens: 0,
        state: 'running',
      },
    ]);
    expect(nested.activeTools[1]?.subruns).toBeUndefined();
    // The call shows what its sub-runs spent (the fold's figure) and its newest sub-run line.
    expect(nested.activeTools[0]).toMatchObject({ tokens: 40, progress: { label: 'inner started' } });
    expect(nested.activeTools[0]?.progress?.ratio).toBeUndefined();

    // A new step is a number (from the fold), not a line: the line still says what it does.
    const next = subrun(scout, { type: 'turn-start', step: 2 });
    state = reduceAgentState(state, next);
    expect(tracker.see(next)).toBe(true);
    expect(tracker.nest(snapshot(['c1']), state.subruns).activeTools[0]?.subruns?.[0]).toMatchObject({
      step: 2,
      summary: 'scout → read {"path":"a.ts"}',
    });

    // The call ends with an error while its sub-runs were still going: they failed with it.
    state = reduceAgentState(state, {
      type: 'tool-end',
      toolCallId: 'c1',
      toolName: 'subagent',
      args: {},
      result: { content: [], isError: true },
      isError: true,
      outcome: 'failed',
    });
    expect(Object.values(state.subruns).map((s) => s.phase)).toEqual(['error', 'error', 'error']);
    const ended = tracker.nest(snapshot(['c1']), state.subruns).activeTools[0];
    expect(ended?.subruns?.map((s) => s.state)).toEqual(['failed', 'failed', 'failed']);
    // Three sub-runs, all over: the call's bar is full.
    expect(ended?.progress?.ratio).toBe(1);
  });
});
