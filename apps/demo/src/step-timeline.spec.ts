import { initialAgentState, reduceAgentState, type AgentEvent, type Usage } from '@rxagent/core';
import type { SubrunStep } from '@rxagent/core/events';
import { assistantMessage, usage } from '@rxagent/testing';
import { StepTimeline } from './step-timeline.js';

describe('StepTimeline', () => {
  it('prints each model call and tool call with its times, approval wait and outcome', () => {
    let now = 0;
    const timeline = new StepTimeline(() => now);
    const asked = assistantMessage([{ type: 'tool-call', id: 'a', name: 'write', args: {} }], 'tool-calls', {
      usage: { inputTokens: 900, outputTokens: 100 },
    });
    const events: [number, AgentEvent][] = [
      [0, { type: 'agent-start', runId: 'r' }],
      [0, { type: 'turn-start', step: 1 }],
      [100, { type: 'retry', attempt: 1, delayMs: 50, error: { name: 'RateLimitError', message: 'slow' } }],
      [400, { type: 'message-update', message: asked, delta: { kind: 'toolcall', text: '{', index: 0 } }],
      [500, { type: 'message-end', message: asked }],
      [500, { type: 'tool-start', toolCallId: 'a', toolName: 'write', args: { path: 'notes.md' } }],
      [500, { type: 'approval-request', toolCallId: 'a', toolName: 'write', args: {} }],
      [2500, { type: 'approval-end', toolCallId: 'a', toolName: 'write', approved: false, reason: 'no' }],
      [
        2500,
        {
          type: 'tool-end',
          toolCallId: 'a',
          toolName: 'write',
          args: {},
          result: { content: [], isError: true },
          isError: true,
          outcome: 'failed',
        },
      ],
      [2600, { type: 'turn-start', step: 2 }],
    ];
    for (const [at, event] of events) {
      now = at;
      timeline.see(event);
    }
    expect(timeline.format()).toBe(
      [
        'Timeline:',
        '  step 1  model                       0.00s +500 ms · first token 400 ms · 1,000 tokens · 1 retry',
        '          └ write {"path":"notes.md"} 0.50s +2.0 s · waited 2.0 s for approval · rejected',
        '  step 2  model                       2.60s (unfinished)',
        '  total: 2 steps · 1,000 tokens',
        '',
      ].join('\n'),
    );
  });
});

describe('StepTimeline: tool calls told apart', () => {
  it('gives each tool call a short argument, cut to 36 characters, the times in one column', () => {
    let now = 0;
    const timeline = new StepTimeline(() => now);
    timeline.see({ type: 'agent-start', runId: 'r' });
    timeline.see({ type: 'turn-start', step: 1 });
    const paths = ['README.md', 'packages/core/README.md', 'packages/subagents/src/subagent-tool.ts'];
    for (const path of paths) {
      now += 10;
      timeline.see({ type: 'tool-start', toolCallId: path, toolName: 'read', args: { path } });
    }
    now = 1000;
    const rows = timeline.format().split('\n').slice(1, 5);
    expect(rows).toEqual([
      '  step 1  model                                  0.00s (unfinished)',
      '          ├ read README.md                       0.01s (unfinished) · running',
      '          ├ read packages/core/README.md         0.02s (unfinished) · running',
      '          └ read packages/subagents/src/subagen… 0.03s (unfinished) · running',
    ]);
    // The cut call is 36 characters, its ellipsis included.
    expect('read packages/subagents/src/subagen…').toHaveLength(36);
  });
});

describe('StepTimeline: sub-runs and summary calls', () => {
  const priced = (inputTokens: number, outputTokens: number) =>
    usage({ inputTokens, outputTokens, costUsd: (inputTokens + outputTokens) / 1e6 });
  const scout: SubrunStep = { toolCallId: 'c1', agent: 'scout', runId: 'r/c1/0' };
  const helper: SubrunStep = { toolCallId: 'h1', agent: 'helper', runId: 'r/c1/0/h1/0' };
  const sub = (path: SubrunStep[], event: AgentEvent): AgentEvent => ({
    type: 'subrun',
    toolCallId: 'c1',
    path,
    event,
  });
  const asks = (id: string, name: string, args: unknown, u: Usage) =>
    assistantMessage([{ type: 'tool-call', id, name, args }], 'tool-calls', { usage: u });
  const says = (u: Usage) => assistantMessage([{ type: 'text', text: 'ok' }], 'stop', { usage: u });
  const end: AgentEvent = {
    type: 'agent-end',
    reason: 'completed',
    signal: { reason: 'completed', message: '' },
    messages: [],
    usage: usage(),
    steps: 1,
  };
  const toolEnd = (toolCallId: string): AgentEvent => ({
    type: 'tool-end',
    toolCallId,
    toolName: 'subagent',
    args: {},
    result: { content: [], isError: false },
    isError: false,
    outcome: 'executed',
  });
  const RUN: [number, AgentEvent][] = [
    [0, { type: 'agent-start', runId: 'r' }],
    [0, { type: 'turn-start', step: 1 }],
    [0, { type: 'summary-start', model: 'small', messages: 30, incremental: false }],
    [10, { type: 'retry', attempt: 1, delayMs: 50, error: { name: 'NetworkError', message: 'reset' } }],
    [80, { type: 'summary-update', delta: '## Goal' }],
    [
      100,
      {
        type: 'compaction',
        strategy: 'summary',
        tokensBefore: 9000,
        tokensAfter: 900,
        summarized: 30,
        usage: priced(3000, 100),
      },
    ],
    [
      150,
      {
        type: 'message-end',
        message: asks('c1', 'subagent', { agent: 'scout', task: 'Look' }, priced(500, 10)),
      },
    ],
    [
      150,
      { type: 'tool-start', toolCallId: 'c1', toolName: 'subagent', args: { agent: 'scout', task: 'Look' } },
    ],
    [150, sub([scout], { type: 'agent-start', runId: 'r/c1/0' })],
    [150, sub([scout], { type: 'turn-start', step: 1 })],
    [
      200,
      sub([scout], {
        type: 'message-end',
        message: asks('h1', 'subagent', { agent: 'helper', task: 'Help' }, priced(200, 20)),
      }),
    ],
    [
      200,
      sub([scout], {
        type: 'tool-start',
        toolCallId: 'h1',
        toolName: 'subagent',
        args: { agent: 'helper', task: 'Help' },
      }),
    ],
    [200, sub([scout, helper], { type: 'agent-start', runId: 'r/c1/0/h1/0' })],
    [200, sub([scout, helper], { type: 'turn-start', step: 1 })],
    [250, sub([scout, helper], { type: 'message-end', message: says(priced(100, 5)) })],
    [250, sub([scout, helper], end)],
    [250, sub([scout], toolEnd('h1'))],
    [250, sub([scout], { type: 'turn-start', step: 2 })],
    [300, sub([scout], { type: 'message-end', message: says(priced(300, 30)) })],
    [300, sub([scout], end)],
    [300, toolEnd('c1')],
    [300, { type: 'turn-start', step: 2 }],
    [400, { type: 'message-end', message: says(priced(700, 15)) }],
    [400, end],
  ];

  it('prints each sub-run under its call and the summary call as a line; the lines add up to the total', () => {
    let now = 0;
    const timeline = new StepTimeline(() => now);
    let state = initialAgentState();
    for (const [at, event] of RUN) {
      now = at;
      timeline.see(event);
      state = reduceAgentState(state, event);
    }
    const text = timeline.format();
    expect(text).toBe(
      [
        'Timeline:',
        '  step 1  summary                               0.00s +100 ms · first token 80 ms · 3,100 tokens · 1 retry',
        '  step 1  model                                 0.10s +50 ms · 510 tokens',
        '          └ subagent scout: Look                0.15s +150 ms · ok · 655 tokens by 1 sub-run',
        '              ↳ scout                           0.15s +150 ms · done (completed) · 2 steps · 655 tokens',
        '                step 1  model                   0.15s +50 ms · 220 tokens',
        '                        └ subagent helper: Help 0.20s +50 ms · ok · 105 tokens by 1 sub-run',
        '                            ↳ scout › helper    0.20s +50 ms · done (completed) · 1 step · 105 tokens',
        '                              step 1  model     0.20s +50 ms · 105 tokens',
        '                step 2  model                   0.25s +50 ms · 330 tokens',
        '  step 2  model                                 0.30s +100 ms · 715 tokens',
        '  total: 2 steps · 4,980 tokens · 655 tokens by sub-runs · $0.004980',
        '',
      ].join('\n'),
    );
    // The total is the state fold's, and the spending lines add up to it.
    expect(state.usage.totalTokens).toBe(4980);
    const own = text
      .split('\n')
      .filter((line) => /^ *step \d+ /.test(line))
      .map((line) => /([\d,]+) tokens/.exec(line)?.[1] ?? '0');
    expect(own.reduce((sum, n) => sum + Number(n.replace(/,/g, '')), 0)).toBe(4980);
    const bySubruns = Object.values(state.subruns).reduce((sum, s) => sum + s.usage.totalTokens, 0);
    expect(bySubruns).toBe(655);
  });
});
