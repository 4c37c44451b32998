import { userMessage, type AssistantMessage, type ModelEvent, type ToolCallPart } from '@rxagent/core';
import { Subscription } from 'rxjs';
import {
  collect,
  messageEnd,
  messageStart,
  sse,
  textBlock,
  thinkingBlock,
  toolUseBlock,
  turn,
  withServer,
} from './anthropic-stream-fixtures.test.js';

const request = { messages: [userMessage('Hi')] };

function finishOf(events: ModelEvent[]): AssistantMessage {
  const last = events[events.length - 1];
  if (last?.type !== 'finish') throw new Error(`last event is ${last?.type}, not finish`);
  return last.message;
}

describe('AnthropicChatModel streaming through the real SDK', () => {
  it('streams text and reports usage with cache reads and writes', async () => {
    const events = await withServer(
      () => ({
        events: [
          messageStart({
            input_tokens: 25,
            cache_creation_input_tokens: 100,
            cache_read_input_tokens: 1024,
            output_tokens: 1,
          }),
          sse('ping'),
          ...textBlock(0, 'Hel', 'lo'),
          ...messageEnd('end_turn', { output_tokens: 12 }),
        ],
      }),
      (model) => collect(model.stream(request)),
    );
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'text-delta', 'usage', 'finish']);
    const usage = {
      inputTokens: 1149,
      outputTokens: 12,
      cacheReadTokens: 1024,
      cacheWriteTokens: 100,
      totalTokens: 1161,
    };
    expect(events[2]).toEqual({ type: 'usage', usage });
    expect(events[3]).toMatchObject({ type: 'finish', reason: 'stop' });
    expect(finishOf(events)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello' }],
      stopReason: 'stop',
      usage,
      provider: 'anthropic',
      model: 'claude-test-20990101',
      timestamp: expect.any(Number),
      responseId: 'msg_test_1',
    });
  });

  it.each([undefined, 7])(
    'streams two parallel tool uses split mid-token (chunkSize %s)',
    async (chunkSize) => {
      const events = await withServer(
        () => ({
          ...turn(
            [
              ...textBlock(0, 'Reading both.'),
              ...toolUseBlock(1, 'toolu_a', 'read', ['', '{"pa', 'th": "a.', 'md"}']),
              ...toolUseBlock(2, 'toolu_b', 'read', ['{"path"', ': "b.md", "li', 'mit": 1', '0}']),
            ],
            'tool_use',
          ),
          ...(chunkSize ? { chunkSize } : {}),
        }),
        (model) => collect(model.stream(request)),
      );
      const starts = events.filter((e) => e.type === 'toolcall-start');
      expect(starts).toEqual([
        { type: 'toolcall-start', index: 1, id: 'toolu_a', name: 'read' },
        { type: 'toolcall-start', index: 2, id: 'toolu_b', name: 'read' },
      ]);
      const deltas = events.filter((e) => e.type === 'toolcall-delta' && e.index === 2);
      expect(deltas.map((e) => (e.type === 'toolcall-delta' ? e.argsText : '')).join('')).toBe(
        '{"path": "b.md", "limit": 10}',
      );
      const message = finishOf(events);
      expect(message.stopReason).toBe('tool-calls');
      expect(message.content).toEqual([
        { type: 'text', text: 'Reading both.' },
        {
          type: 'tool-call',
          id: 'toolu_a',
          name: 'read',
          args: { path: 'a.md' },
        },
        {
          type: 'tool-call',
          id: 'toolu_b',
          name: 'read',
          args: { path: 'b.md', limit: 10 },
        },
      ]);
      expect(events.filter((e) => e.type === 'toolcall-end').map((e) => e.index)).toEqual([1, 2]);
    },
  );

  it('treats an empty or missing tool input as {}', async () => {
    const events = await withServer(
      () =>
        turn(
          [...toolUseBlock(0, 'toolu_1', 'now', ['']), ...toolUseBlock(1, 'toolu_2', 'now', [])],
          'tool_use',
        ),
      (model) => collect(model.stream(request)),
    );
    const calls = finishOf(events).content as ToolCallPart[];
    expect(calls.map((c) => [c.args, c.argsError])).toEqual([
      [{}, undefined],
      [{}, undefined],
    ]);
  });

  it('keeps malformed tool input as raw text with the parse error, without failing', async () => {
    const events = await withServer(
      () => turn(toolUseBlock(0, 'toolu_1', 'read', ['{"path": "a.md"', ', oops}']), 'tool_use'),
      (model) => collect(model.stream(request)),
    );
    const end = events.find((e) => e.type === 'toolcall-end');
    expect(end).toMatchObject({
      type: 'toolcall-end',
      index: 0,
      call: { id: 'toolu_1', args: {}, argsText: '{"path": "a.md", oops}', argsError: expect.any(String) },
    });
    expect(finishOf(events).content[0]).toEqual(end?.type === 'toolcall-end' ? end.call : undefined);
  });

  it('streams thinking with its signature and sends the block back verbatim next turn', async () => {
    const signature = 'EqQBCkYIARgCIkB+sig/==';
    await withServer(
      (_request, index) =>
        index === 0
          ? turn(
              [
                ...thinkingBlock(0, ['Let me ', 'check.'], signature),
                ...toolUseBlock(1, 'toolu_1', 'read', ['{"path":"a.md"}']),
              ],
              'tool_use',
            )
          : turn(textBlock(0, 'Done.')),
      async (model, server) => {
        const events = await collect(model.stream({ ...request, thinking: 'low' }));
        expect(events.filter((e) => e.type === 'thinking-delta')).toEqual([
          { type: 'thinking-delta', index: 0, text: 'Let me ' },
          { type: 'thinking-delta', index: 0, text: 'check.' },
          { type: 'thinking-delta', index: 0, text: '', signature },
        ]);
        const assistant = finishOf(events);
        expect(assistant.content[0]).toEqual({ type: 'thinking', text: 'Let me check.', signature });
        const result = {
          role: 'tool' as const,
          toolCallId: 'toolu_1',
          toolName: 'read',
          content: [{ type: 'text' as const, text: '# A' }],
          isError: false,
          timestamp: 0,
        };
        await collect(model.stream({ messages: [userMessage('Hi'), assistant, result], thinking: 'low' }));
        const sent = server.requests[1]?.body as { messages: unknown[] };
        expect(sent.messages[1]).toEqual({
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Let me check.', signature },
            { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.md' } },
          ],
        });
        expect(sent.messages[2]).toEqual({
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '# A' }] },
          ],
        });
      },
    );
  });

  it('keeps a redacted thinking block as opaque data', async () => {
    const events = await withServer(
      () =>
        turn([
          sse('content_block_start', {
            index: 0,
            content_block: { type: 'redacted_thinking', data: 'opaque==' },
          }),
          sse('content_block_stop', { index: 0 }),
          ...textBlock(1, 'Hi'),
        ]),
      (model) => collect(model.stream(request)),
    );
    expect(finishOf(events).content).toEqual([
      { type: 'thinking', text: '', redacted: 'opaque==' },
      { type: 'text', text: 'Hi' },
    ]);
  });

  it('decodes unicode split across byte chunks', async () => {
    const text = 'Grüße, 日本語 and 🎉🚀';
    const events = await withServer(
      () => ({ ...turn(textBlock(0, 'Grüße, 日本', '語 and 🎉', '🚀')), chunkSize: 5 }),
      (model) => collect(model.stream(request)),
    );
    expect(finishOf(events).content).toEqual([{ type: 'text', text }]);
  });

  it('ends a refusal with content-filter and keeps the refusal text', async () => {
    const events = await withServer(
      () => turn(textBlock(0, 'I can not help with that.'), 'refusal'),
      (model) => collect(model.stream(request)),
    );
    const message = finishOf(events);
    expect(message.stopReason).toBe('content-filter');
    expect(message.content).toEqual([{ type: 'text', text: 'I can not help with that.' }]);
  });

  it('delivers a 5,000-delta stream whole', async () => {
    const pieces = Array.from({ length: 5000 }, (_, i) => String(i % 10));
    const events = await withServer(
      () => turn(textBlock(0, ...pieces)),
      (model) => collect(model.stream(request)),
    );
    expect(events.filter((e) => e.type === 'text-delta')).toHaveLength(5000);
    expect(finishOf(events).content).toEqual([{ type: 'text', text: pieces.join('') }]);
  });

  it('starts the request on subscribe only', async () => {
    await withServer(
      () => turn(textBlock(0, 'Hi')),
      async (model, server) => {
        const stream$ = model.stream(request);
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(server.requests).toHaveLength(0);
        await collect(stream$);
        await collect(stream$);
        expect(server.requests).toHaveLength(2);
      },
    );
  });

  it('aborts the HTTP request when unsubscribed mid-stream', async () => {
    await withServer(
      () => ({ events: [messageStart(), ...textBlock(0, 'Hel')], after: 'stall' }),
      async (model, server) => {
        const subscription = new Subscription();
        await new Promise<void>((resolve, reject) => {
          subscription.add(
            model.stream(request).subscribe({
              next: (event) => event.type === 'text-delta' && resolve(),
              error: reject,
            }),
          );
        });
        subscription.unsubscribe();
        await expect(server.requests[0]?.closedByClient).resolves.toBeUndefined();
        expect(server.requests[0]?.clientClosed).toBe(true);
      },
    );
  });

  it('sends the key as a bearer token, the custom headers, and asks the SDK for no retries', async () => {
    await withServer(
      () => turn(textBlock(0, 'Hi')),
      async (model, server) => {
        await collect(model.stream(request));
        const headers = server.requests[0]?.headers ?? {};
        expect(headers['authorization']).toBe('Bearer sk-ant-test-key-0123456789');
        expect(headers['x-trace']).toBe('t1');
        expect(headers['x-stainless-retry-count']).toBe('0');
        expect(server.requests[0]?.path).toBe('/v1/messages');
      },
      { headers: { 'x-trace': 't1' } },
    );
  });
});
