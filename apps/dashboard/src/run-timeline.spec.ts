import type { AgentEvent } from '@rxagent/core';
import { assistantMessage, usage } from '@rxagent/testing';
import { RunTimeline } from './run-timeline.js';

const call = (id: string, name: string) => ({
  type: 'tool-call' as const,
  id,
  name,
  args: { path: `${id}.md` },
});
const toolMessage = assistantMessage([call('a', 'read'), call('b', 'write')], 'tool-calls', {
  usage: { inputTokens: 1000, outputTokens: 100 },
});
const answer = assistantMessage([{ type: 'text', text: 'Done' }], 'stop', {
  usage: usage({ inputTokens: 2000, outputTokens: 50, costUsd: 0.01 }),
});
const result = (text: string) => ({ content: [{ type: 'text' as const, text }], isError: false });

/** A run as [time, event] pairs. */
const RUN: [number, AgentEvent][] = [
  [1000, { type: 'agent-start', runId: 'r' }],
  [1000, { type: 'turn-start', step: 1 }],
  [
    1010,
    { type: 'retry', attempt: 1, delayMs: 100, error: { name: 'RateLimitError', message: 'slow down' } },
  ],
  [1150, { type: 'message-update', message: toolMessage, delta: { kind: 'toolcall', text: '{', index: 0 } }],
  [1200, { type: 'message-end', message: toolMessage }],
  [1200, { type: 'tool-start', toolCallId: 'a', toolName: 'read', args: { path: 'a.md' } }],
  [1200, { type: 'tool-start', toolCallId: 'b', toolName: 'write', args: { path: 'b.md' } }],
  [1201, { type: 'approval-request', toolCallId: 'b', toolName: 'write', args: { path: 'b.md' } }],
  [
    1300,
    {
      type: 'tool-end',
      toolCallId: 'a',
      toolName: 'read',
      args: {},
      result: result('A'),
      isError: false,
      outcome: 'executed',
    },
  ],
  [1500, { type: 'approval-end', toolCallId: 'b', toolName: 'write', approved: false, reason: 'no' }],
  [
    1500,
    {
      type: 'tool-end',
      toolCallId: 'b',
      toolName: 'write',
      args: {},
      result: { ...result('no'), isError: true },
      isError: true,
      outcome: 'failed',
    },
  ],
  [
    1500,
    {
      type: 'message-end',
      message: {
        role: 'tool',
        toolCallId: 'a',
        toolName: 'read',
        content: [{ type: 'text', text: 'A' }],
        isError: false,
        timestamp: 0,
      },
    },
  ],
  [1500, { type: 'turn-start', step: 2 }],
  [1600, { type: 'message-end', message: answer }],
];

describe('RunTimeline', () => {
  it('folds a run into rows with phases, marks, tokens and cost', () => {
    const timeline = new RunTimeline();
    for (const [at, event] of RUN) timeline.see(event, at);
    timeline.see(
      {
        type: 'agent-end',
        reason: 'completed',
        signal: { reason: 'completed', message: '' },
        messages: [],
        usage: usage(),
        steps: 2,
      },
      1600,
    );
    const view = timeline.view(99_999);
    expect(view).toMatchObject({ ended: true, now: 600, stopReason: 'completed', startedAt: 1000 });
    expect(view.rows.map((r) => [r.id, r.start, r.end, r.status])).toEqual([
      ['model-1', 0, 200, 'ok'],
      ['tool-a', 200, 300, 'ok'],
      ['tool-b', 200, 500, 'rejected'],
      ['model-2', 500, 600, 'ok'],
    ]);
    const [model, , write, last] = view.rows;
    expect(model?.segments).toEqual([
      { phase: 'waiting-first-token', start: 0, end: 10 },
      { phase: 'retry', start: 10, end: 110 },
      { phase: 'waiting-first-token', start: 110, end: 150 },
      { phase: 'streaming', start: 150, end: 200 },
    ]);
    expect(model?.firstTokenMs).toBe(150);
    expect(model?.marks.map((m) => m.kind)).toEqual(['retry']);
    expect(write?.segments).toEqual([{ phase: 'approval', start: 200, end: 500 }]);
    expect(write?.marks).toEqual([{ at: 500, kind: 'rejected', text: 'rejected: no' }]);
    // Each row's tokens are what its call spent; a cost only as the run priced it, never guessed.
    expect(model?.tokens).toEqual({ input: 1000, output: 100, total: 1100 });
    expect(last?.tokens).toEqual({ input: 2000, output: 50, total: 2050, costUsd: 0.01 });
    // The totals are the state fold's: one call is unpriced, so the run has no total cost.
    expect(view.totals).toEqual({ input: 3000, output: 150, total: 3150, steps: 2 });
    // Some calls were priced: no estimate of the rest passes for the run's cost.
    expect(view.estimate).toBeUndefined();
    expect(view.rows.map((r) => r.depth)).toEqual([0, 0, 0, 0]);
  });

  /** A run of two model calls, neither priced (a scripted model). */
  const unpriced = (timeline: RunTimeline) => {
    timeline.see({ type: 'agent-start', runId: 'r' }, 0);
    timeline.see({ type: 'turn-start', step: 1 }, 0);
    timeline.see({ type: 'message-end', message: toolMessage }, 40);
    timeline.see({ type: 'turn-start', step: 2 }, 50);
    const free = assistantMessage([{ type: 'text', text: 'Done' }], 'stop', {
      usage: { inputTokens: 2000, outputTokens: 50, cacheReadTokens: 1000 },
    });
    timeline.see({ type: 'message-end', message: free }, 90);
    return timeline.view(100);
  };

  it('estimates a run that priced no call at gpt-4o-mini prices, beside its unknown cost', () => {
    const view = unpriced(new RunTimeline());
    // The run's cost stays unknown: the totals are the state fold's.
    expect(view.totals).toEqual({ input: 3000, output: 150, total: 3150, steps: 2 });
    expect(view.rows.every((r) => r.tokens?.costUsd === undefined)).toBe(true);
    // gpt-4o-mini: $0.15 / $0.075 cached / $0.60 per million (the built-in price table).
    const expected = (2000 * 0.15 + 1000 * 0.075 + 150 * 0.6) / 1e6;
    expect(view.estimate?.pricedAs).toBe('gpt-4o-mini');
    expect(view.estimate?.costUsd).toBeCloseTo(expected, 15);
  });

  it('estimates at the stand-in it is given, and not at all before any token is spent', () => {
    const standIn = { model: 'house-model', price: { inputPerMillion: 1, outputPerMillion: 10 } };
    expect(unpriced(new RunTimeline({ standIn })).estimate).toEqual({
      costUsd: (3000 * 1 + 150 * 10) / 1e6,
      pricedAs: 'house-model',
    });
    const fresh = new RunTimeline();
    fresh.see({ type: 'agent-start', runId: 'r' }, 0);
    fresh.see({ type: 'turn-start', step: 1 }, 0);
    expect(fresh.view(10).estimate).toBeUndefined();
  });

  it('keeps each step in full for its detail', () => {
    const timeline = new RunTimeline();
    for (const [at, event] of RUN) timeline.see(event, at);
    expect(timeline.detail('tool-a')).toMatchObject({
      args: '{\n  "path": "a.md"\n}',
      result: 'A',
      isError: false,
    });
    expect(timeline.detail('tool-b')).toMatchObject({
      approval: { approved: false, reason: 'no' },
      isError: true,
    });
    const model2 = timeline.detail('model-2');
    expect(model2?.input?.map((m) => m.role)).toEqual(['tool']);
    expect(model2?.output).toEqual(answer);
    expect(timeline.detail('nope')).toBeUndefined();
  });

  it('draws a row still running up to now, and closes it when the run stops without agent-end', () => {
    const timeline = new RunTimeline();
    timeline.see({ type: 'agent-start', runId: 'r' }, 0);
    timeline.see({ type: 'turn-start', step: 1 }, 0);
    expect(timeline.view(250)).toMatchObject({
      ended: false,
      now: 250,
      rows: [{ id: 'model-1', status: 'running' }],
    });
    timeline.stop(300, 'cancelled');
    expect(timeline.view(999)).toMatchObject({
      ended: true,
      now: 300,
      stopReason: 'cancelled',
      rows: [{ end: 300, status: 'cancelled' }],
    });
  });
});
