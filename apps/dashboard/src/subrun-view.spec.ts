import type { AgentEvent } from '@rxagent/core';
import type { SubagentProgress } from '@rxagent/subagents';
import type { RunSnapshot } from './run-snapshot.js';
import { SubrunTracker } from './subrun-view.js';

const progress = (toolCallId: string, p: Partial<SubagentProgress>): AgentEvent => ({
  type: 'tool-update',
  toolCallId,
  toolName: 'subagent',
  kind: 'progress',
  progress: {
    type: 'subagent-progress',
    kind: 'turn',
    agent: 'scout',
    path: ['scout'],
    runId: 'r/c1/0',
    index: 0,
    step: 1,
    summary: 'scout · step 1',
    tokens: 0,
    ...p,
  },
});

const snapshot = (ids: string[]): RunSnapshot =>
  ({
    activeTools: ids.map((toolCallId) => ({ toolCallId, toolName: 'subagent', args: '{}' })),
  }) as unknown as RunSnapshot;

describe('SubrunTracker', () => {
  it('nests the latest view of each sub-run under its call, and forgets them when the call ends', () => {
    const tracker = new SubrunTracker();
    expect(
      tracker.see({
        type: 'tool-update',
        toolCallId: 'c1',
        toolName: 'bash',
        kind: 'progress',
        progress: 'x',
      }),
    ).toBe(false);
    tracker.see(progress('c1', {}));
    tracker.see(
      progress('c1', {
        runId: 'r/c1/1',
        agent: 'writer',
        path: ['writer'],
        summary: 'writer started',
        step: 0,
      }),
    );
    tracker.see(progress('c1', { kind: 'tool-start', tool: 'read', summary: 'scout → read', tokens: 40 }));
    tracker.see(
      progress('c1', {
        kind: 'start',
        path: ['scout', 'inner'],
        agent: 'inner',
        runId: 'r/c1/0/c9/0',
        summary: 'inner started',
      }),
    );
    tracker.see(
      progress('c1', {
        kind: 'error',
        runId: 'r/c1/1',
        agent: 'writer',
        path: ['writer'],
        summary: 'writer failed',
      }),
    );

    const nested = tracker.nest(snapshot(['c1', 'c2']));
    expect(nested.activeTools[0]?.subruns).toEqual([
      {
        runId: 'r/c1/0',
        agent: 'scout',
        path: ['scout'],
        step: 1,
        tool: 'read',
        summary: 'scout → read',
        tokens: 40,
        state: 'running',
      },
      {
        runId: 'r/c1/0/c9/0',
        agent: 'inner',
        path: ['scout', 'inner'],
        step: 1,
        summary: 'inner started',
        tokens: 0,
        state: 'running',
      },
      {
        runId: 'r/c1/1',
        agent: 'writer',
        path: ['writer'],
        step: 1,
        summary: 'writer failed',
        tokens: 0,
        state: 'failed',
      },
    ]);
    expect(nested.activeTools[1]?.subruns).toBeUndefined();

    expect(
      tracker.see({
        type: 'tool-end',
        toolCallId: 'c1',
        toolName: 'subagent',
        args: {},
        result: { content: [], isError: false },
        isError: false,
      }),
    ).toBe(true);
    expect(tracker.nest(snapshot(['c1'])).activeTools[0]?.subruns).toBeUndefined();
  });
});
