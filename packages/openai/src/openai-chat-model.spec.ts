import { take, tap, VirtualTimeScheduler } from 'rxjs';
import {
  AuthError,
  ContextOverflowError,
  NetworkError,
  OverloadedError,
  PartialStreamError,
  ProviderError,
  ProviderTimeoutError,
  RateLimitError,
  StreamIdleError,
  userMessage,
  type ChatRequest,
} from '@rxagent/core';
import { encodeSse, startSseTestServer, type SseTestServer } from '@rxagent/testing';
import {
  API_KEY,
  CHAT_DONE,
  EXPECTED_CHAT_USAGE,
  SERVED_MODEL,
  callFragment,
  chatChunk,
  chatText,
  chatToolCalls,
  chatUsageChunk,
  collect,
  finishOf,
  gate,
  scriptedServer,
  streamError,
  testModel,
} from './test-support/openai-fixtures.test.js';

const hi: ChatRequest = { messages: [userMessage('Hi')] };
let server: SseTestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('OpenAIChatModel streaming', () => {
  it('streams text, then usage, then finish with the complete message', async () => {
    server = await scriptedServer({ events: chatText(['Hel', 'lo']) });
    const events = await collect(testModel(server).stream(hi));
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'text-delta', 'usage', 'finish']);
    expect(events[0]).toEqual({ type: 'text-delta', index: 0, text: 'Hel' });
    expect(events[2]).toEqual({ type: 'usage', usage: EXPECTED_CHAT_USAGE });
    const { reason, message } = finishOf(events);
    expect(reason).toBe('stop');
    expect(message).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello' }],
      stopReason: 'stop',
      provider: 'openai',
      model: SERVED_MODEL,
      responseId: 'chatcmpl-1',
      usage: EXPECTED_CHAT_USAGE,
    });
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.headers['x-stainless-retry-count']).toBe('0');
    expect(request.body).toMatchObject({
      model: 'gpt-test',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('keeps two interleaved parallel tool calls apart, with arguments split mid-token and mid-byte', async () => {
    const a = { id: 'call_a', name: 'read' };
    const b = { id: 'call_b', name: 'search' };
    server = await scriptedServer({
      chunkSize: 7,
      events: [
        chatChunk({ role: 'assistant', content: null }),
        chatChunk({ tool_calls: [callFragment(0, '', a)] }),
        chatChunk({ tool_calls: [callFragment(1, '{"q', b)] }),
        chatChunk({ tool_calls: [callFragment(0, '{"pa')] }),
        chatChunk({ tool_calls: [callFragment(1, '":"caf\\u00')] }),
        chatChunk({ tool_calls: [callFragment(0, 'th":"a.md"}')] }),
        chatChunk({ tool_calls: [callFragment(1, 'e9 ☕"}')] }),
        chatChunk({}, 'tool_calls'),
        chatUsageChunk(),
        CHAT_DONE,
      ],
    });
    const events = await collect(testModel(server).stream(hi));
    expect(events.filter((e) => e.type === 'toolcall-start')).toEqual([
      { type: 'toolcall-start', index: 0, id: 'call_a', name: 'read' },
      { type: 'toolcall-start', index: 1, id: 'call_b', name: 'search' },
    ]);
    const deltas = events.filter((e) => e.type === 'toolcall-delta');
    expect(deltas.map((e) => e.index)).toEqual([1, 0, 1, 0, 1]);
    expect(events.filter((e) => e.type === 'toolcall-end').map((e) => e.call)).toEqual([
      { type: 'tool-call', id: 'call_a', name: 'read', args: { path: 'a.md' } },
      { type: 'tool-call', id: 'call_b', name: 'search', args: { q: 'café ☕' } },
    ]);
    const { reason, message } = finishOf(events);
    expect(reason).toBe('tool-calls');
    expect(message.content.map((p) => p.type === 'tool-call' && p.id)).toEqual(['call_a', 'call_b']);
  });

  it('reads "" arguments as {} and keeps malformed arguments raw with argsError', async () => {
    server = await scriptedServer({
      events: chatToolCalls([
        { id: 'call_1', name: 'now', pieces: [] },
        { id: 'call_2', name: 'read', pieces: ['{"path": "a.md"', ', "x'] },
      ]),
    });
    const { message } = finishOf(await collect(testModel(server).stream(hi)));
    expect(message.content[0]).toEqual({ type: 'tool-call', id: 'call_1', name: 'now', args: {} });
    expect(message.content[1]).toMatchObject({
      type: 'tool-call',
      id: 'call_2',
      args: {},
      argsText: '{"path": "a.md", "x',
      argsError: expect.any(String) as string,
    });
  });

  it('reassembles emoji and CJK split across deltas and transport chunks', async () => {
    server = await scriptedServer({ chunkSize: 5, events: chatText(['👋 你', '好世', '界 🌏!']) });
    const { message } = finishOf(await collect(testModel(server).stream(hi)));
    expect(message.content).toEqual([{ type: 'text', text: '👋 你好世界 🌏!' }]);
  });

  it('streams a refusal as text and finishes with content-filter', async () => {
    server = await scriptedServer({
      events: [
        chatChunk({ role: 'assistant', content: null, refusal: '' }),
        chatChunk({ content: null, refusal: "I can't " }),
        chatChunk({ content: null, refusal: 'help with that.' }),
        chatChunk({}, 'stop'),
        CHAT_DONE,
      ],
    });
    const events = await collect(testModel(server).stream(hi));
    expect(events.filter((e) => e.type === 'text-delta').map((e) => e.text)).toEqual([
      "I can't ",
      'help with that.',
    ]);
    const { reason, message } = finishOf(events);
    expect(reason).toBe('content-filter');
    expect(message.stopReason).toBe('content-filter');
    expect(message.content).toEqual([{ type: 'text', text: "I can't help with that." }]);
  });

  it('delivers a 5,000-delta stream whole', async () => {
    const pieces = Array.from({ length: 5000 }, (_, i) => String(i % 10));
    server = await scriptedServer({ events: chatText(pieces) });
    const events = await collect(testModel(server).stream(hi));
    expect(events.filter((e) => e.type === 'text-delta')).toHaveLength(5000);
    const { message } = finishOf(events);
    expect(message.content).toEqual([{ type: 'text', text: pieces.join('') }]);
    // 5,000 awaited writes of the test server: seconds on a busy machine (the full suite).
  }, 30_000);

  it('finishes normally when the connection drops after finish_reason (only usage is lost)', async () => {
    // The text and the finish_reason in one write: once the client has the text it has both,
    // and only then is the connection cut.
    const read = gate();
    server = await scriptedServer({
      events: [
        { raw: encodeSse(chatChunk({ content: 'Done' })) + encodeSse(chatChunk({}, 'stop')) },
        { until: read.opened },
      ],
      after: 'cut',
    });
    const events = await collect(
      testModel(server)
        .stream(hi)
        .pipe(tap(() => read.open())),
    );
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'finish']);
  });
});

describe('OpenAIChatModel stream failures', () => {
  it('errors with PartialStreamError carrying the partial tool call when the connection is cut', async () => {
    const read = gate();
    server = await scriptedServer({
      events: [
        chatChunk({ content: 'Let me look.' }),
        chatChunk({ tool_calls: [callFragment(0, '{"path":', { id: 'call_1', name: 'read' })] }),
        { until: read.opened }, // cut once the client has read the call's first fragment
      ],
      after: 'cut',
    });
    const error = await streamError(
      testModel(server)
        .stream(hi)
        .pipe(tap((e) => e.type === 'toolcall-delta' && read.open())),
    );
    expect(PartialStreamError.isInstance(error)).toBe(true);
    const partial = (error as PartialStreamError).partial!;
    expect(partial.stopReason).toBe('error');
    expect(partial.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool-call', id: 'call_1', name: 'read', args: {}, argsText: '{"path":' },
    ]);
    expect((error as PartialStreamError).retryable).toBe(true);
  });

  it('errors with NetworkError when the connection is cut before any chunk', async () => {
    server = await scriptedServer({ events: [], after: 'cut' });
    const error = await streamError(testModel(server).stream(hi));
    expect(NetworkError.isInstance(error)).toBe(true);
    expect((error as NetworkError).retryable).toBe(true);
  });

  it('errors with PartialStreamError when the stream ends cleanly without a finish_reason', async () => {
    server = await scriptedServer({ events: [chatChunk({ content: 'Half an ans' }), CHAT_DONE] });
    const error = await streamError(testModel(server).stream(hi));
    expect(PartialStreamError.isInstance(error)).toBe(true);
    expect((error as PartialStreamError).partial?.content).toEqual([{ type: 'text', text: 'Half an ans' }]);
  });

  it('errors with StreamIdleError and closes the connection when the body stalls', async () => {
    server = await scriptedServer({ events: [chatChunk({ content: 'Thinking' })], after: 'stall' });
    // The idle timeout on a clock the test moves: 200 ms pass once the client has read 'Thinking'.
    const scheduler = new VirtualTimeScheduler();
    const error = await streamError(
      testModel(server, { idleTimeoutMs: 200, scheduler })
        .stream(hi)
        .pipe(tap((e) => e.type === 'text-delta' && queueMicrotask(() => scheduler.flush()))),
    );
    expect(StreamIdleError.isInstance(error)).toBe(true);
    expect((error as StreamIdleError).idleMs).toBe(200);
    expect((error as StreamIdleError).partial?.content).toEqual([{ type: 'text', text: 'Thinking' }]);
    await server.requests[0]!.closedByClient;
  });

  it('classifies an error chunk inside a 200 stream (server_error → retryable)', async () => {
    server = await scriptedServer({
      events: [
        chatChunk({ content: 'Hi' }),
        {
          data: {
            error: { message: 'The server had an error', type: 'server_error', param: null, code: null },
          },
        },
      ],
    });
    const error = await streamError(testModel(server).stream(hi));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, code: 'server_error', status: undefined });
  });

  it('classifies an in-stream context_length_exceeded as ContextOverflowError', async () => {
    server = await scriptedServer({
      events: [
        {
          data: {
            error: { message: 'Too long', type: 'invalid_request_error', code: 'context_length_exceeded' },
          },
        },
      ],
    });
    const error = await streamError(testModel(server).stream(hi));
    expect(ContextOverflowError.isInstance(error)).toBe(true);
  });

  it('aborts the request when unsubscribed mid-stream', async () => {
    server = await scriptedServer({ events: [chatChunk({ content: 'a' })], after: 'stall' });
    const first = await collect(testModel(server).stream(hi).pipe(take(1)));
    expect(first).toEqual([{ type: 'text-delta', index: 0, text: 'a' }]);
    await server.requests[0]!.closedByClient;
    expect(server.requests[0]!.clientClosed).toBe(true);
  });
});

describe('OpenAIChatModel HTTP errors', () => {
  const errorBody = (message: string, code: string | null, type = 'invalid_request_error') => ({
    error: { message, type, param: null, code },
  });

  it('maps 401 to AuthError and keeps the key out of message and body', async () => {
    server = await scriptedServer({
      status: 401,
      json: errorBody(`Incorrect API key provided: ${API_KEY}.`, 'invalid_api_key'),
    });
    const error = await streamError(testModel(server).stream(hi));
    expect(AuthError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 401, retryable: false, code: 'invalid_api_key' });
    expect((error as AuthError).message).not.toContain(API_KEY);
    expect(JSON.stringify((error as AuthError).body)).not.toContain(API_KEY);
    expect(JSON.stringify((error as AuthError).body)).toContain('[redacted]');
    expect(server.requests).toHaveLength(1);
  });

  it('maps 400 context_length_exceeded to ContextOverflowError', async () => {
    server = await scriptedServer({
      status: 400,
      json: errorBody("This model's maximum context length is 128000 tokens.", 'context_length_exceeded'),
    });
    const error = await streamError(testModel(server).stream(hi));
    expect(ContextOverflowError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, retryable: false });
  });

  it('maps 429 to RateLimitError with retry-after (seconds, ms, HTTP date) and never retries itself', async () => {
    const limited = (headers: Record<string, string>) => ({
      status: 429,
      headers,
      json: errorBody('Rate limit reached', 'rate_limit_exceeded', 'requests'),
    });
    server = await scriptedServer(
      limited({ 'retry-after': '1.5' }),
      limited({ 'retry-after-ms': '250', 'retry-after': '9' }),
      limited({ 'retry-after': new Date(Date.now() + 120_000).toUTCString() }),
    );
    const model = testModel(server);
    const seconds = await streamError(model.stream(hi));
    expect(RateLimitError.isInstance(seconds)).toBe(true);
    expect(seconds).toMatchObject({ status: 429, retryable: true, retryAfterMs: 1500 });
    expect(await streamError(model.stream(hi))).toMatchObject({ retryAfterMs: 250 });
    const date = (await streamError(model.stream(hi))) as RateLimitError;
    expect(date.retryAfterMs).toBeGreaterThan(100_000);
    expect(date.retryAfterMs).toBeLessThanOrEqual(120_000);
    expect(server.requests).toHaveLength(3);
  });

  it('maps 5xx to retryable errors (503 → OverloadedError) unless x-should-retry says no', async () => {
    server = await scriptedServer(
      { status: 500, json: errorBody('The server had an error', null, 'server_error') },
      { status: 503, json: errorBody('Engine overloaded', null, 'server_error') },
      { status: 500, headers: { 'x-should-retry': 'false' }, json: errorBody('No', null, 'server_error') },
      { status: 400, headers: { 'x-should-retry': 'true' }, json: errorBody('Odd', 'odd') },
    );
    const model = testModel(server);
    const e500 = await streamError(model.stream(hi));
    expect(ProviderError.isInstance(e500)).toBe(true);
    expect(e500).toMatchObject({
      status: 500,
      retryable: true,
      body: { message: 'The server had an error' },
    });
    const e503 = await streamError(model.stream(hi));
    expect(OverloadedError.isInstance(e503)).toBe(true);
    expect(e503).toMatchObject({ status: 503, retryable: true });
    expect(await streamError(model.stream(hi))).toMatchObject({ status: 500, retryable: false });
    expect(await streamError(model.stream(hi))).toMatchObject({ status: 400, retryable: true, code: 'odd' });
  });

  it('maps any other status to a non-retryable ProviderError with status and body', async () => {
    server = await scriptedServer({
      status: 404,
      json: errorBody('The model does not exist', 'model_not_found'),
    });
    const error = await streamError(testModel(server).stream(hi));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 404,
      retryable: false,
      code: 'model_not_found',
      body: { message: 'The model does not exist', code: 'model_not_found' },
    });
  });

  it('maps a refused connection to NetworkError', async () => {
    const closed = await startSseTestServer(() => ({ events: [] }));
    await closed.close();
    const model = testModel(closed);
    const error = await streamError(model.stream(hi));
    expect(NetworkError.isInstance(error)).toBe(true);
    expect((error as NetworkError).retryable).toBe(true);
  });

  it('maps a missing response head within requestTimeoutMs to ProviderTimeoutError', async () => {
    // The server never answers; the 100 ms pass on the test's clock once it has the request.
    const scheduler = new VirtualTimeScheduler();
    server = await startSseTestServer(() => {
      scheduler.flush();
      return new Promise<never>(() => undefined);
    });
    const error = await streamError(testModel(server, { requestTimeoutMs: 100, scheduler }).stream(hi));
    expect(ProviderTimeoutError.isInstance(error)).toBe(true);
    expect(scheduler.now()).toBe(100);
    expect(server.requests).toHaveLength(1);
    await server.requests[0]!.closedByClient;
  });
});
