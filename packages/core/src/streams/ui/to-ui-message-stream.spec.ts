import { lastValueFrom, Observable, of, toArray } from 'rxjs';
import type { AgentEvent } from '../../events/agent-event.js';
import { toUIMessageStream, toUIMessageStreamResponse, uiMessageChunks } from './to-ui-message-stream.js';

// The mapping's edges; what the AI SDK's own reader makes of the chunks is tested in
// apps/sse-example (ui-message-stream.spec.ts, with the real `ai` package).

const start: AgentEvent = { type: 'agent-start', runId: 'run-1' };

describe('uiMessageChunks', () => {
  it('sends approvals and tool ends of calls the message does not hold (a sub-agent’s) as data parts', async () => {
    const events: AgentEvent[] = [
      start,
      { type: 'approval-request', toolCallId: 'sub_1', toolName: 'bash', args: {} },
      { type: 'approval-end', toolCallId: 'sub_1', toolName: 'bash', approved: true },
      {
        type: 'tool-end',
        toolCallId: 'sub_1',
        toolName: 'bash',
        args: {},
        result: { content: [{ type: 'text', text: 'ok' }], isError: false },
        isError: false,
        outcome: 'executed',
      },
    ];
    const chunks = await lastValueFrom(uiMessageChunks(of(...events)).pipe(toArray()));
    expect(chunks.map((c) => c.type)).toEqual([
      'start',
      'data-rxagent-approval-request',
      'data-rxagent-approval-end',
      'data-rxagent-tool-end',
    ]);
    expect(chunks[0]).toEqual({ type: 'start', messageId: 'run-1' });
  });

  it('ends a failed run with an error chunk carrying the name and message only', async () => {
    const failing = new Observable<AgentEvent>((s) => {
      s.next(start);
      s.error(Object.assign(new Error('boom'), { name: 'ProviderError', body: 'sk-secret' }));
    });
    const chunks = await lastValueFrom(uiMessageChunks(failing).pipe(toArray()));
    expect(chunks.at(-1)).toEqual({ type: 'error', errorText: 'ProviderError: boom' });
  });
});

describe('toUIMessageStreamResponse', () => {
  it('frames each chunk as an SSE data line, ends with [DONE], and sends the v1 header', async () => {
    const response = toUIMessageStreamResponse(of(start), { messageId: 'm1' });
    expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe('data: {"type":"start","messageId":"m1"}\n\ndata: [DONE]\n\n');
  });
});

describe('toUIMessageStream', () => {
  it('cuts off a reader more than maxBufferedChunks behind with an error chunk and leaves the run', async () => {
    let unsubscribed = false;
    const run$ = new Observable<AgentEvent>((s) => {
      s.next(start);
      for (let step = 1; step <= 10 && !unsubscribed; step++) s.next({ type: 'turn-start', step });
      return () => (unsubscribed = true);
    });
    const reader = toUIMessageStream(run$, { maxBufferedChunks: 3 }).getReader();
    const read: string[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) read.push(r.value.type);
    expect(read).toEqual(['start', 'start-step', 'start-step', 'start-step', 'error']);
    expect(unsubscribed).toBe(true);
  });
});
