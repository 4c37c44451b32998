import { take, tap, VirtualTimeScheduler } from 'rxjs';
import {
  AuthError,
  ContextOverflowError,
  PartialStreamError,
  ProviderError,
  RateLimitError,
  StreamIdleError,
  userMessage,
  type ChatRequest,
} from '@rxagent/core';
import type { SseTestServer } from '@rxagent/testing';
import {
  API_KEY,
  EXPECTED_RESPONSES_USAGE,
  RESPONSES_START,
  SERVED_MODEL,
  collect,
  finishOf,
  responseObject,
  responsesCall,
  responsesCompleted,
  responsesEvent,
  responsesMessage,
  scriptedServer,
  streamError,
  testModel,
  gate,
  until,
} from './test-support/openai-fixtures.test.js';

const hi: ChatRequest = { messages: [userMessage('Hi')] };
let server: SseTestServer | undefined;
const responsesModel = (s: SseTestServer, idleTimeoutMs?: number, scheduler?: VirtualTimeScheduler) =>
  testModel(s, {
    api: 'responses',
    ...(idleTimeoutMs !== undefined && { idleTimeoutMs }),
    ...(scheduler && { scheduler }),
  });

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('OpenAIResponsesModel streaming', () => {
  it('streams text, then usage, then finish with the complete message', async () => {
    server = await scriptedServer({
      events: [...RESPONSES_START, ...responsesMessage(0, ['Hel', 'lo']), responsesCompleted()],
    });
    const events = await collect(responsesModel(server).stream(hi));
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'text-delta', 'usage', 'finish']);
    expect(events[2]).toEqual({ type: 'usage', usage: EXPECTED_RESPONSES_USAGE });
    const { reason, message } = finishOf(events);
    expect(reason).toBe('stop');
    expect(message).toMatchObject({
      content: [{ type: 'text', text: 'Hello' }],
      stopReason: 'stop',
      provider: 'openai',
      model: SERVED_MODEL,
      responseId: 'resp_1',
      usage: EXPECTED_RESPONSES_USAGE,
    });
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1/responses');
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request.body).toMatchObject({ model: 'gpt-test', stream: true, store: false });
  });

  it('orders reasoning, text and interleaved tool calls by appearance, split mid-token and mid-byte', async () => {
    const [aAdded, aDelta1, aDelta2, aArgsDone, aDone] = responsesCall(2, {
      id: 'call_a',
      name: 'read',
      pieces: ['{"path":"caf\\u00', 'e9.md"}'],
    });
    const [bAdded, bDelta1, bArgsDone, bDone] = responsesCall(3, {
      id: 'call_b',
      name: 'now',
      pieces: ['{}'],
    });
    server = await scriptedServer({
      chunkSize: 9,
      events: [
        ...RESPONSES_START,
        responsesEvent('response.output_item.added', {
          output_index: 0,
          item: { id: 'rs_0', type: 'reasoning', summary: [] },
        }),
        responsesEvent('response.reasoning_summary_text.delta', {
          item_id: 'rs_0',
          output_index: 0,
          summary_index: 0,
          delta: 'Need the file ',
        }),
        responsesEvent('response.reasoning_summary_text.delta', {
          item_id: 'rs_0',
          output_index: 0,
          summary_index: 0,
          delta: '🔍',
        }),
        ...responsesMessage(1, ['Reading ', '文件']),
        aAdded!,
        bAdded!,
        aDelta1!,
        bDelta1!,
        aDelta2!,
        aArgsDone!,
        aDone!,
        bArgsDone!,
        bDone!,
        responsesEvent('keepalive'),
        responsesCompleted(),
      ],
    });
    const events = await collect(responsesModel(server).stream(hi));
    expect(events.filter((e) => e.type === 'thinking-delta').map((e) => e.index)).toEqual([0, 0]);
    expect(events.filter((e) => e.type === 'toolcall-start')).toEqual([
      { type: 'toolcall-start', index: 2, id: 'call_a', name: 'read' },
      { type: 'toolcall-start', index: 3, id: 'call_b', name: 'now' },
    ]);
    expect(events.filter((e) => e.type === 'toolcall-delta').map((e) => e.index)).toEqual([2, 3, 2]);
    const { reason, message } = finishOf(events);
    expect(reason).toBe('tool-calls');
    expect(message.content).toEqual([
      { type: 'thinking', text: 'Need the file 🔍' },
      { type: 'text', text: 'Reading 文件' },
      { type: 'tool-call', id: 'call_a', name: 'read', args: { path: 'café.md' } },
      { type: 'tool-call', id: 'call_b', name: 'now', args: {} },
    ]);
  });

  it('reads "" arguments as {} and keeps malformed arguments raw with argsError', async () => {
    server = await scriptedServer({
      events: [
        ...RESPONSES_START,
        ...responsesCall(0, { id: 'call_1', name: 'now', pieces: [] }),
        ...responsesCall(1, { id: 'call_2', name: 'read', pieces: ['{"path": ', '"a.md'] }),
        responsesCompleted(),
      ],
    });
    const { message } = finishOf(await collect(responsesModel(server).stream(hi)));
    expect(message.content[0]).toEqual({ type: 'tool-call', id: 'call_1', name: 'now', args: {} });
    expect(message.content[1]).toMatchObject({
      id: 'call_2',
      args: {},
      argsText: '{"path": "a.md',
      argsError: expect.any(String) as string,
    });
  });

  it('streams a refusal as text and finishes with content-filter', async () => {
    const ids = { item_id: 'msg_0', output_index: 0, content_index: 0 };
    server = await scriptedServer({
      events: [
        ...RESPONSES_START,
        responsesEvent('response.refusal.delta', { ...ids, delta: "I can't " }),
        responsesEvent('response.refusal.delta', { ...ids, delta: 'help.' }),
        responsesEvent('response.refusal.done', { ...ids, refusal: "I can't help." }),
        responsesCompleted(),
      ],
    });
    const { reason, message } = finishOf(await collect(responsesModel(server).stream(hi)));
    expect(reason).toBe('content-filter');
    expect(message.content).toEqual([{ type: 'text', text: "I can't help." }]);
  });

  it.each([
    ['max_output_tokens', 'length'],
    ['content_filter', 'content-filter'],
  ])('maps response.incomplete (%s) to %s', async (why, expected) => {
    server = await scriptedServer({
      events: [
        ...RESPONSES_START,
        ...responsesMessage(0, ['Cut sh']),
        responsesEvent('response.incomplete', {
          response: responseObject('incomplete', { incomplete_details: { reason: why } }),
        }),
      ],
    });
    const { reason, message } = finishOf(await collect(responsesModel(server).stream(hi)));
    expect(reason).toBe(expected);
    expect(message.stopReason).toBe(expected);
  });

  it('delivers a 5,000-delta stream whole', async () => {
    const pieces = Array.from({ length: 5000 }, (_, i) => String(i % 10));
    server = await scriptedServer({
      events: [...RESPONSES_START, ...responsesMessage(0, pieces), responsesCompleted()],
    });
    const events = await collect(responsesModel(server).stream(hi));
    expect(events.filter((e) => e.type === 'text-delta')).toHaveLength(5000);
    expect(finishOf(events).message.content).toEqual([{ type: 'text', text: pieces.join('') }]);
  });
});

describe('OpenAIResponsesModel failures', () => {
  it('classifies a nested in-stream context_length_exceeded error as ContextOverflowError', async () => {
    server = await scriptedServer({
      events: [
        RESPONSES_START[0]!,
        responsesEvent('error', {
          error: {
            type: 'invalid_request_error',
            code: 'context_length_exceeded',
            message: 'Your input exceeds the context window of this model.',
            param: 'input',
          },
        }),
      ],
    });
    const error = await streamError(responsesModel(server).stream(hi));
    expect(ContextOverflowError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'context_length_exceeded', retryable: false });
  });

  it('classifies a flat in-stream server_error (then response.failed) as a retryable ProviderError', async () => {
    server = await scriptedServer({
      events: [
        ...RESPONSES_START,
        ...responsesMessage(0, ['Hi']),
        responsesEvent('error', { code: 'server_error', message: 'Something broke', param: null }),
        responsesEvent('response.failed', {
          response: responseObject('failed', { error: { code: 'server_error', message: 'Something broke' } }),
        }),
      ],
    });
    const error = await streamError(responsesModel(server).stream(hi));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'server_error', retryable: true });
    expect((error as ProviderError).message).toContain('Something broke');
  });

  it('turns response.failed into a ProviderError', async () => {
    server = await scriptedServer({
      events: [
        ...RESPONSES_START,
        responsesEvent('response.failed', {
          response: responseObject('failed', {
            error: { code: 'rate_limit_exceeded', message: 'Slow down' },
          }),
        }),
      ],
    });
    const error = await streamError(responsesModel(server).stream(hi));
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: true });
  });

  it('errors with PartialStreamError carrying the partial tool call when cut mid-call', async () => {
    const call = responsesCall(0, { id: 'call_1', name: 'read', pieces: ['{"pa', 'th"'] });
    const read = gate();
    server = await scriptedServer({
      // cut once the client has read the call's first fragment
      events: [...RESPONSES_START, ...call.slice(0, 2), { until: read.opened }],
      after: 'cut',
    });
    const error = await streamError(
      responsesModel(server)
        .stream(hi)
        .pipe(tap((e) => e.type === 'toolcall-delta' && read.open())),
    );
    expect(PartialStreamError.isInstance(error)).toBe(true);
    expect((error as PartialStreamError).partial?.content).toEqual([
      { type: 'tool-call', id: 'call_1', name: 'read', args: {}, argsText: '{"pa' },
    ]);
  });

  it('errors with PartialStreamError when the stream ends without a terminal event', async () => {
    server = await scriptedServer({ events: [...RESPONSES_START, ...responsesMessage(0, ['Almost'])] });
    const error = await streamError(responsesModel(server).stream(hi));
    expect(PartialStreamError.isInstance(error)).toBe(true);
    expect((error as PartialStreamError).partial?.content).toEqual([{ type: 'text', text: 'Almost' }]);
  });

  it('errors with StreamIdleError and closes the connection when the body stalls', async () => {
    server = await scriptedServer({ events: [...RESPONSES_START], after: 'stall' });
    // The idle timeout on a clock the test moves: 200 ms pass once the head is in (the timer armed).
    const scheduler = new VirtualTimeScheduler();
    const failed = streamError(responsesModel(server, 200, scheduler).stream(hi));
    await until(() => scheduler.actions.length > 0);
    scheduler.flush();
    const error = await failed;
    expect(StreamIdleError.isInstance(error)).toBe(true);
    await server.requests[0]!.closedByClient;
  });

  it('aborts the request when unsubscribed mid-stream', async () => {
    server = await scriptedServer({
      events: [...RESPONSES_START, ...responsesMessage(0, ['a'])],
      after: 'stall',
    });
    const first = await collect(responsesModel(server).stream(hi).pipe(take(1)));
    expect(first).toEqual([{ type: 'text-delta', index: 0, text: 'a' }]);
    await server.requests[0]!.closedByClient;
  });

  it('maps 401 to AuthError and 400 context_length_exceeded to ContextOverflowError', async () => {
    server = await scriptedServer(
      {
        status: 401,
        json: { error: { message: 'Bad key', type: 'invalid_request_error', code: 'invalid_api_key' } },
      },
      {
        status: 400,
        json: {
          error: { message: 'Too long', type: 'invalid_request_error', code: 'context_length_exceeded' },
        },
      },
    );
    const model = responsesModel(server);
    expect(AuthError.isInstance(await streamError(model.stream(hi)))).toBe(true);
    expect(ContextOverflowError.isInstance(await streamError(model.stream(hi)))).toBe(true);
  });
});
