import { initialAgentState, reduceAgentState, type AgentEvent } from '@rxagent/core';
import type { SubrunStep } from '@rxagent/core/events';
import { assistantMessage, usage } from '@rxagent/testing';
import { RunTimeline } from './run-timeline.js';
import type { TimelineRow } from './timeline-types.js';

const priced = (inputTokens: number, outputTokens: number) =>
  usage({ inputTokens, outputTokens, costUsd: (inputTokens + 4 * outputTokens) / 1e6 });
const asks = (id: string, name: string, args: unknown, u = priced(100, 10)) =>
  assistantMessage([{ type: 'tool-call', id, name, args }], 'tool-calls', { usage: u });
const says = (text: string, u = priced(50, 5)) =>
  assistantMessage([{ type: 'text', text }], 'stop', { usage: u });
const toolEnd = (toolCallId: string, toolName: string, isError = false): AgentEvent => ({
  type: 'tool-end',
  toolCallId,
  toolName,
  args: {},
  result: { content: [{ type: 'text', text: isError ? 'failed' : 'ok' }], isError },
  isError,
  outcome: isError ? 'failed' : 'executed',
});
const end = (reason: 'completed' = 'completed'): AgentEvent => ({
  type: 'agent-end',
  reason,
  signal: { reason, message: '' },
  messages: [],
  usage: usage(),
  steps: 1,
});

const scout: SubrunStep = { toolCallId: 'c1', agent: 'scout', runId: 'r/c1/0' };
const helper: SubrunStep = { toolCallId: 'h1', agent: 'helper', runId: 'r/c1/0/h1/0' };
const sub = (path: SubrunStep[], event: AgentEvent): AgentEvent => ({
  type: 'subrun',
  toolCallId: 'c1',
  path,
  event,
});

/** A parent whose `subagent` call runs a scout, which runs a helper of its own. */
const NESTED: [number, AgentEvent][] = [
  [0, { type: 'agent-start', runId: 'r' }],
  [0, { type: 'turn-start', step: 1 }],
  [10, { type: 'message-end', message: asks('c1', 'subagent', { agent: 'scout', task: 'Look' }) }],
  [
    10,
    { type: 'tool-start', toolCallId: 'c1', toolName: 'subagent', args: { agent: 'scout', task: 'Look' } },
  ],
  [11, sub([scout], { type: 'agent-start', runId: 'r/c1/0' })],
  [11, sub([scout], { type: 'message-end', message: { role: 'user', content: 'Look', timestamp: 0 } })],
  [11, sub([scout], { type: 'turn-start', step: 1 })],
  [
    20,
    sub([scout], {
      type: 'message-end',
      message: asks('h1', 'subagent', { agent: 'helper' }, priced(700, 30)),
    }),
  ],
  [
    20,
    sub([scout], { type: 'tool-start', toolCallId: 'h1', toolName: 'subagent', args: { agent: 'helper' } }),
  ],
  [21, sub([scout, helper], { type: 'agent-start', runId: 'r/c1/0/h1/0' })],
  [21, sub([scout, helper], { type: 'turn-start', step: 1 })],
  [30, sub([scout, helper], { type: 'message-end', message: says('helped', priced(300, 20)) })],
  [30, sub([scout, helper], end())],
  [31, sub([scout], toolEnd('h1', 'subagent'))],
  [31, sub([scout], { type: 'turn-start', step: 2 })],
  [40, sub([scout], { type: 'message-end', message: says('Found it.', priced(900, 40)) })],
  [40, sub([scout], end())],
  [41, toolEnd('c1', 'subagent')],
  [41, { type: 'turn-start', step: 2 }],
  [50, { type: 'message-end', message: says('Done.') }],
  [50, end()],
];

function play(events: [number, AgentEvent][]) {
  const timeline = new RunTimeline();
  let state = initialAgentState();
  for (const [at, event] of events) {
    timeline.see(event, at);
    state = reduceAgentState(state, event);
  }
  return { timeline, state };
}

const ownTokens = (rows: TimelineRow[]) => rows.reduce((sum, r) => sum + (r.tokens?.total ?? 0), 0);

describe('RunTimeline: sub-runs and summary calls', () => {
  it('nests each sub-run under the call that runs it, with its own rows and tokens', () => {
    const { timeline, state } = play(NESTED);
    const view = timeline.view(999);
    expect(view.rows.map((r) => [r.id, r.kind, r.depth, r.parent ?? '', r.tokens?.total ?? 0])).toEqual([
      ['model-1', 'model', 0, '', 110],
      ['tool-c1', 'tool', 0, '', 0],
      ['s1', 'subrun', 1, 'tool-c1', 0],
      ['s1.model-1', 'model', 2, 's1', 730],
      ['s1.tool-h1', 'tool', 2, 's1', 0],
      ['s2', 'subrun', 3, 's1.tool-h1', 0],
      ['s2.model-1', 'model', 4, 's2', 320],
      ['s1.model-2', 'model', 2, 's1', 940],
      ['model-2', 'model', 0, '', 55],
    ]);
    const byId = new Map(view.rows.map((r) => [r.id, r]));
    // The call's subtotal is what its sub-runs spent: the state fold's figure for them.
    const spentBySubruns = Object.values(state.subruns).reduce((sum, s) => sum + s.usage.totalTokens, 0);
    expect(byId.get('tool-c1')?.subtotal?.total).toBe(spentBySubruns);
    expect(spentBySubruns).toBe(730 + 320 + 940);
    expect(byId.get('s2')?.subtotal?.total).toBe(state.subruns['r/c1/0/h1/0']?.usage.totalTokens);
    // Its rows add up to the totals, and the totals are the card's (the state fold's), cost too.
    expect(ownTokens(view.rows)).toBe(view.totals.total);
    expect(view.totals.total).toBe(state.usage.totalTokens);
    expect(view.totals.costUsd).toBeCloseTo(state.usage.costUsd ?? NaN, 12);
    expect(view.estimate).toBeUndefined(); // every call priced: the run's own cost, no estimate
    expect(byId.get('tool-c1')?.subtotal?.costUsd).toBeCloseTo((820 + 380 + 1060) / 1e6, 12);
    // A sub-run's row: its agents, its task, its step and phase from the fold, its life as a bar.
    expect(byId.get('s1')).toMatchObject({
      label: 'scout',
      detail: 'Look',
      start: 11,
      end: 40,
      status: 'ok',
      subrun: { step: 2, phase: 'idle' },
      segments: [{ phase: 'subrun', start: 11, end: 40 }],
    });
    expect(byId.get('s2')).toMatchObject({ label: 'scout › helper', subrun: { step: 1, phase: 'idle' } });
    expect(timeline.detail('s1')?.subrun).toEqual({
      path: ['scout'],
      task: 'Look',
      answer: 'Found it.',
      stopReason: 'completed',
    });
  });

  it('ends the rows of a sub-run whose call failed before it ended, as the fold does', () => {
    const cut = NESTED.slice(0, 9); // the scout runs its helper call and is still at work
    const { timeline, state } = play([...cut, [25, toolEnd('c1', 'subagent', true)]]);
    const rows = timeline.view(999).rows;
    expect(rows.filter((r) => r.id.startsWith('s1')).map((r) => [r.id, r.status, r.end])).toEqual([
      ['s1', 'error', 25],
      ['s1.model-1', 'ok', 20],
      ['s1.tool-h1', 'error', 25],
    ]);
    expect(state.subruns['r/c1/0']?.phase).toBe('error');
  });

  it('shows a context summary call as a row with its tokens; the model call starts after it', () => {
    const summaryUsage = priced(4000, 200);
    const { timeline, state } = play([
      [0, { type: 'agent-start', runId: 'r' }],
      [0, { type: 'turn-start', step: 1 }],
      [0, { type: 'summary-start', model: 'small-model', messages: 40, incremental: false }],
      [5, { type: 'retry', attempt: 1, delayMs: 100, error: { name: 'NetworkError', message: 'reset' } }],
      [120, { type: 'summary-update', delta: '## Goal\n' }],
      [130, { type: 'summary-update', delta: 'Ship.' }],
      [
        140,
        {
          type: 'compaction',
          strategy: 'summary',
          tokensBefore: 9000,
          tokensAfter: 1200,
          summarized: 40,
          usage: summaryUsage,
        },
      ],
      [150, { type: 'message-update', message: says('Hi'), delta: { kind: 'text', text: 'Hi', index: 0 } }],
      [160, { type: 'message-end', message: says('Hi') }],
      [160, end()],
    ]);
    const view = timeline.view(999);
    expect(view.rows.map((r) => [r.id, r.kind, r.start, r.end, r.tokens?.total])).toEqual([
      ['summary-1', 'summary', 0, 140, 4200],
      ['model-1', 'model', 140, 160, 55],
    ]);
    const [summary, model] = view.rows;
    expect(summary).toMatchObject({
      label: 'summary',
      detail: 'small-model · 40 messages',
      firstTokenMs: 120,
    });
    expect(summary?.marks.map((m) => m.kind)).toEqual(['retry', 'compaction']);
    expect(model?.segments.map((s) => s.phase)).toEqual(['waiting-first-token', 'streaming']);
    expect(view.totals.total).toBe(state.usage.totalTokens);
    expect(ownTokens(view.rows)).toBe(view.totals.total);
    expect(timeline.detail('summary-1')).toMatchObject({
      summary: '## Goal\nShip.',
      compaction: { strategy: 'summary', tokensBefore: 9000, tokensAfter: 1200, summarized: 40 },
    });
  });
});
