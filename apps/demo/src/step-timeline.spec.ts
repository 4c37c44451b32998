import type { AgentEvent } from '@rxagent/core';
import { assistantMessage } from '@rxagent/testing';
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
        '  step 1  model                                  0.00s +500 ms · first token 400 ms · 1,000 tokens · 1 retry',
        '          └ write {"path":"notes.md"}            0.50s +2.0 s · waited 2.0 s for approval · rejected',
        '  step 2  model                                  2.60s (unfinished) · 0 tokens',
        '',
      ].join('\n'),
    );
  });

  it('tells calls of one tool apart by a short argument, cut to the column', () => {
    let now = 0;
    const timeline = new StepTimeline(() => now);
    timeline.see({ type: 'agent-start', runId: 'r' });
    timeline.see({ type: 'turn-start', step: 1 });
    for (const path of [
      'README.md',
      'packages/subagents/README.md',
      'packages/subagents/src/subagent-tool.ts',
    ]) {
      timeline.see({ type: 'tool-start', toolCallId: path, toolName: 'read', args: { path } });
    }
    now = 10;
    const rows = timeline.format().split('\n').slice(2, 5);
    expect(rows).toEqual([
      '          ├ read README.md                       0.00s (unfinished) · running',
      '          ├ read packages/subagents/README.md    0.00s (unfinished) · running',
      '          └ read packages/subagents/src/subagen… 0.00s (unfinished) · running',
    ]);
  });
});
