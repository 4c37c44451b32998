import { tap, VirtualTimeScheduler } from 'rxjs';
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
} from '@rxagent/core';
import { startSseTestServer, type SseScript } from '@rxagent/testing';
import { anthropic } from './anthropic.js';
import {
  failure,
  gate,
  messageStart,
  sse,
  TEST_API_KEY,
  textBlock,
  toolUseBlock,
  withServer,
} from './anthropic-stream-fixtures.test.js';

const request = { messages: [userMessage('Hi')] };
const errorBody = (type: string, message: string) => ({
  type: 'error',
  error: { type, message },
  request_id: 'req_1',
});

describe('AnthropicChatModel errors', () => {
  it('maps 429 to RateLimitError with retry-after in ms', async () => {
    const error = await withServer(
      () => ({
        status: 429,
        headers: { 'retry-after': '3' },
        json: errorBody('rate_limit_error', 'Slow down'),
      }),
      (model) => failure(model.stream(request)),
    );
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 429,
      retryAfterMs: 3000,
      retryable: true,
      code: 'rate_limit_error',
    });
    expect((error as Error).message).toContain('Slow down');
  });

  it('prefers retry-after-ms', async () => {
    const error = await withServer(
      () => ({
        status: 429,
        headers: { 'retry-after-ms': '250', 'retry-after': '3' },
        json: errorBody('rate_limit_error', 'Slow down'),
      }),
      (model) => failure(model.stream(request)),
    );
    expect(error).toMatchObject({ retryAfterMs: 250 });
  });

  it('maps 401 to a non-retryable AuthError without the key in the message, after one request', async () => {
    await withServer(
      () => ({ status: 401, json: errorBody('authentication_error', 'invalid x-api-key') }),
      async (model, server) => {
        const error = await failure(model.stream(request));
        expect(AuthError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ status: 401, retryable: false });
        expect((error as Error).message).toContain('ANTHROPIC_API_KEY');
        expect((error as Error).message).not.toContain(TEST_API_KEY);
        expect(server.requests).toHaveLength(1);
      },
    );
  });

  it('maps 529 to OverloadedError', async () => {
    const error = await withServer(
      () => ({ status: 529, json: errorBody('overloaded_error', 'Overloaded') }),
      (model) => failure(model.stream(request)),
    );
    expect(OverloadedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 529, retryable: true });
  });

  it('maps "prompt is too long" to ContextOverflowError', async () => {
    const error = await withServer(
      () => ({
        status: 400,
        json: errorBody('invalid_request_error', 'prompt is too long: 212345 tokens > 200000 maximum'),
      }),
      (model) => failure(model.stream(request)),
    );
    expect(ContextOverflowError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, retryable: false });
  });

  it('maps other statuses to ProviderError with status and body, retryable as x-should-retry says', async () => {
    const body = errorBody('api_error', 'Internal server error');
    const [plain, vetoed] = await withServer(
      (_request, index): SseScript => ({
        status: 500,
        json: body,
        headers: index === 1 ? { 'x-should-retry': 'false' } : {},
      }),
      async (model) => [await failure(model.stream(request)), await failure(model.stream(request))] as const,
    );
    expect(ProviderError.isInstance(plain)).toBe(true);
    expect(plain).toMatchObject({
      name: 'ProviderError',
      status: 500,
      body,
      retryable: true,
      requestId: undefined,
    });
    expect(vetoed).toMatchObject({ status: 500, retryable: false });
  });

  it('maps an in-stream overloaded_error event to OverloadedError', async () => {
    const error = await withServer(
      () => ({
        events: [
          messageStart(),
          ...textBlock(0, 'Hel'),
          sse('error', { error: { type: 'overloaded_error', message: 'Overloaded' } }),
        ],
      }),
      (model) => failure(model.stream(request)),
    );
    expect(OverloadedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true, code: 'overloaded_error', status: undefined });
  });

  it('reports a connection cut mid tool use as PartialStreamError with the partial message', async () => {
    const read = gate();
    const error = await withServer(
      () => ({
        events: [
          messageStart(),
          ...textBlock(0, 'Reading.'),
          ...toolUseBlock(1, 'toolu_1', 'read', ['{"pa', 'th": "a'], false),
          { until: read.opened }, // the socket goes once the client has read the last piece
        ],
        after: 'cut',
      }),
      (model) =>
        failure(
          model
            .stream(request)
            .pipe(tap((e) => e.type === 'toolcall-delta' && e.argsText === 'th": "a' && read.open())),
        ),
    );
    expect(PartialStreamError.isInstance(error)).toBe(true);
    const partial = (error as PartialStreamError).partial;
    expect(partial?.content).toEqual([
      { type: 'text', text: 'Reading.' },
      expect.objectContaining({ type: 'tool-call', id: 'toolu_1', args: {}, argsText: '{"path": "a' }),
    ]);
  });

  it('reports a cut before any event as NetworkError', async () => {
    const error = await withServer(
      () => ({ events: [{ raw: ': keep-alive\n\n' }, { delayMs: 20 }], after: 'cut' }),
      (model) => failure(model.stream(request)),
    );
    expect(NetworkError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true });
  });

  it('reports a clean end without message_stop as PartialStreamError', async () => {
    const error = await withServer(
      () => ({ events: [messageStart(), ...textBlock(0, 'Hello')] }),
      (model) => failure(model.stream(request)),
    );
    expect(PartialStreamError.isInstance(error)).toBe(true);
    expect((error as PartialStreamError).partial?.content).toEqual([{ type: 'text', text: 'Hello' }]);
  });

  it('reports a stall mid-stream as StreamIdleError and closes the connection', async () => {
    // The idle timeout on a clock the test moves: 200 ms pass once the client has read 'Hel'.
    const scheduler = new VirtualTimeScheduler();
    await withServer(
      () => ({ events: [messageStart(), ...textBlock(0, 'Hel')], after: 'stall' }),
      async (model, server) => {
        const error = await failure(
          model
            .stream(request)
            .pipe(tap((e) => e.type === 'text-delta' && queueMicrotask(() => scheduler.flush()))),
        );
        expect(StreamIdleError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ idleMs: 200, retryable: true });
        expect((error as StreamIdleError).partial?.content).toEqual([{ type: 'text', text: 'Hel' }]);
        await expect(server.requests[0]?.closedByClient).resolves.toBeUndefined();
      },
      { idleTimeoutMs: 200, scheduler },
    );
  });

  it('reports a response head later than requestTimeoutMs as ProviderTimeoutError', async () => {
    // The server never answers; the 100 ms pass on the test's clock once it has the request (a
    // real 100 ms timer could fire before a busy machine's server saw the request).
    const scheduler = new VirtualTimeScheduler();
    await withServer(
      () => {
        scheduler.flush();
        return new Promise<SseScript>(() => undefined);
      },
      async (model, server) => {
        const error = await failure(model.stream(request));
        expect(ProviderTimeoutError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ retryable: true });
        expect((error as Error).message).toContain('requestTimeoutMs');
        expect(scheduler.now()).toBe(100);
        await expect(server.requests[0]?.closedByClient).resolves.toBeUndefined();
      },
      { requestTimeoutMs: 100, scheduler },
    );
  });

  it('fails with AuthError on subscribe, before any request, when there is no key', async () => {
    const saved = process.env['ANTHROPIC_API_KEY'];
    delete process.env['ANTHROPIC_API_KEY'];
    const server = await startSseTestServer(() => ({ events: [] }));
    try {
      const model = anthropic('claude-test', { baseURL: server.url });
      const error = await failure(model.stream(request));
      expect(AuthError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/pass `apiKey`.*ANTHROPIC_API_KEY/);
      expect(server.requests).toHaveLength(0);
    } finally {
      if (saved !== undefined) process.env['ANTHROPIC_API_KEY'] = saved;
      await server.close();
    }
  });

  it('reads the key from ANTHROPIC_API_KEY', async () => {
    const saved = process.env['ANTHROPIC_API_KEY'];
    process.env['ANTHROPIC_API_KEY'] = 'sk-ant-from-env-000';
    const server = await startSseTestServer(() => ({
      status: 401,
      json: errorBody('authentication_error', 'no'),
    }));
    try {
      await failure(anthropic('claude-test', { baseURL: server.url }).stream(request));
      expect(server.requests[0]?.headers['authorization']).toBe('Bearer sk-ant-from-env-000');
    } finally {
      if (saved === undefined) delete process.env['ANTHROPIC_API_KEY'];
      else process.env['ANTHROPIC_API_KEY'] = saved;
      await server.close();
    }
  });
});
