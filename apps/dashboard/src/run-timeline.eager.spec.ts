import type { AgentEvent } from '@rxagent/core';
import { assistantMessage } from '@rxagent/testing';
import { RunTimeline } from './run-timeline.js';

// Eager tools: a tool-start comes before the model's message-end (the call started while the
// model streamed), and a retried model call drops the calls its failed attempt started.

const lookup = { type: 'tool-call' as const, id: 'a', name: 'lookup', args: { q: 'x' } };
const message = assistantMessage([lookup], 'tool-calls', { usage: { inputTokens: 10, outputTokens: 5 } });
const start = (id: string): AgentEvent => ({
  type: 'tool-start',
  toolCallId: id,
  toolName: 'lookup',
  args: { q: 'x' },
});
const result = { content: [{ type: 'text' as const, text: 'found' }], isError: false };

const RUN: [number, AgentEvent][] = [
  [0, { type: 'agent-start', runId: 'r' }],
  [0, { type: 'turn-start', step: 1 }],
  [10, { type: 'message-update', message, delta: { kind: 'toolcall', text: '{', index: 0 } }],
  [20, start('a')],
  [
    30,
    { type: 'retry', attempt: 1, delayMs: 50, error: { name: 'NetworkError', message: 'socket hang up' } },
  ],
  [90, { type: 'message-update', message, delta: { kind: 'toolcall', text: '{', index: 0 } }],
  [100, start('a')],
  [400, { type: 'message-end', message }],
  [
    400,
    {
      type: 'tool-end',
      toolCallId: 'a',
      toolName: 'lookup',
      args: { q: 'x' },
      result,
      isError: false,
      outcome: 'executed',
    },
  ],
];

describe('RunTimeline with eager tools', () => {
  it('a tool row starts while the model row streams; a retry ends the dropped one as cancelled', () => {
    const timeline = new RunTimeline();
    const seen: string[][] = [];
    for (const [at, event] of RUN) {
      timeline.see(event, at);
      if (event.type === 'retry') seen.push(timeline.view(at).rows.map((r) => `${r.id}:${r.status}`));
    }
    // At the retry, the call of the failed attempt is cut; the model row goes on.
    expect(seen).toEqual([['model-1:running', 'tool-a-dropped-1:cancelled']]);
    const view = timeline.view(400);
    expect(view.rows.map((r) => [r.id, r.start, r.end, r.status])).toEqual([
      ['model-1', 0, 400, 'ok'],
      ['tool-a-dropped-1', 20, 30, 'cancelled'],
      ['tool-a', 100, 400, 'ok'],
    ]);
    expect(view.rows[1]?.marks.map((m) => m.text)).toEqual([
      'dropped: the model call that asked for it is retried',
    ]);
    expect(timeline.detail('tool-a')).toMatchObject({ result: 'found', isError: false });
  });
});
