import { emptyUsage, stopSignal, type AgentEvent } from '@rxagent/core';
import { assistantMessage } from '@rxagent/testing';
import { TerminalRenderer } from './render-terminal.js';
import { StepTimeline } from './step-timeline.js';

// Eager tools in the demo's views: a tool-start before the model's message-end, and a retried
// model call that drops the call its failed attempt started.

const call = { type: 'tool-call' as const, id: 'a', name: 'read', args: { path: 'README.md' } };
const asked = assistantMessage([call], 'tool-calls', { usage: { inputTokens: 900, outputTokens: 100 } });
const answer = assistantMessage([{ type: 'text', text: 'Done.' }], 'stop', {
  usage: { inputTokens: 1000, outputTokens: 5 },
});
const start: AgentEvent = { type: 'tool-start', toolCallId: 'a', toolName: 'read', args: call.args };
const result = { content: [{ type: 'text' as const, text: '# Demo' }], isError: false };
const resultMessage = {
  role: 'tool' as const,
  toolCallId: 'a',
  toolName: 'read',
  content: result.content,
  isError: false,
  timestamp: 0,
};

const RUN: [number, AgentEvent][] = [
  [0, { type: 'agent-start', runId: 'r' }],
  [0, { type: 'turn-start', step: 1 }],
  [100, { type: 'message-update', message: asked, delta: { kind: 'text', text: 'Let me read. ', index: 0 } }],
  [200, start],
  [
    300,
    { type: 'retry', attempt: 1, delayMs: 100, error: { name: 'NetworkError', message: 'socket hang up' } },
  ],
  [500, start],
  [900, { type: 'message-end', message: asked }],
  [
    900,
    {
      type: 'tool-end',
      toolCallId: 'a',
      toolName: 'read',
      args: call.args,
      result,
      isError: false,
      outcome: 'executed',
    },
  ],
  [900, { type: 'message-start', message: resultMessage }],
  [900, { type: 'message-end', message: resultMessage }],
  [1000, { type: 'turn-start', step: 2 }],
  [1100, { type: 'message-end', message: answer }],
  [
    1100,
    {
      type: 'agent-end',
      reason: 'completed',
      signal: stopSignal('completed', 'done'),
      messages: [],
      usage: emptyUsage(),
      steps: 2,
    },
  ],
];

describe('demo views with eager tools', () => {
  it('--timeline: the dropped call ends cancelled at the retry, the retried one runs beside the model call', () => {
    let now = 0;
    const timeline = new StepTimeline(() => now);
    for (const [at, event] of RUN) {
      now = at;
      timeline.see(event);
    }
    expect(timeline.format()).toBe(
      [
        'Timeline:',
        '  step 1  model            0.00s +900 ms · 1,000 tokens · 1 retry',
        '          ├ read README.md 0.20s +100 ms · cancelled',
        '          └ read README.md 0.50s +400 ms · ok',
        '  step 2  model            1.00s +100 ms · 1,005 tokens',
        '  total: 2 steps · 2,005 tokens',
        '',
      ].join('\n'),
    );
  });

  it('the renderer says the dropped call was dropped, and shows the tool line while the answer streams', () => {
    let written = '';
    const renderer = new TerminalRenderer({ out: { write: (s: string) => (written += s) }, tty: false });
    for (const [, event] of RUN) renderer.next(event);
    renderer.complete();
    const lines = written.split('\n');
    expect(lines.slice(0, 6)).toEqual([
      'Let me read. ',
      '→ read README.md',
      '  … read dropped: the model call that asked for it is retried',
      '↻ retry 1 in 0.1 s — NetworkError: socket hang up',
      '→ read README.md',
      expect.stringMatching(/^✓ read README.md /),
    ]);
  });
});
