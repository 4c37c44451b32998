import { firstValueFrom, filter, VirtualTimeScheduler } from 'rxjs';
import { StreamIdleError, userMessage, type ModelEvent } from '@rxagent/core';
import type { SseTestServer } from '@rxagent/testing';
import {
  API_KEY,
  bodyOf,
  chunk,
  collect,
  finishOf,
  hi,
  scriptedServer,
  testModel,
  textStream,
} from './test-support/google-fixtures.test.js';

// The real @google/genai client against a local server speaking Gemini's streaming protocol
// (`POST /v1beta/models/{model}:streamGenerateContent?alt=sse`, one `data:` JSON chunk per event).

let server: SseTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('GoogleChatModel streaming', () => {
  it('streams text with usage (cached and thinking tokens) and the served model', async () => {
    server = await scriptedServer({ events: textStream(['Hel', 'lo']) });
    const events = await collect(testModel(server).stream(hi));
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'text-delta', 'usage', 'finish']);
    const request = server.requests[0]!;
    expect(request.path).toBe('/v1beta/models/gemini-test:streamGenerateContent?alt=sse');
    expect(request.headers['x-goog-api-key']).toBe(API_KEY);
    expect(bodyOf(server).contents).toEqual([{ role: 'user', parts: [{ text: 'Hi' }] }]);
    const { reason, message } = finishOf(events);
    expect(reason).toBe('stop');
    expect(message).toMatchObject({
      provider: 'google',
      model: 'gemini-test-001',
      responseId: 'resp-test-1',
      content: [{ type: 'text', text: 'Hello' }],
      usage: {
        inputTokens: 20,
        outputTokens: 20,
        cacheReadTokens: 5,
        cacheWriteTokens: 0,
        totalTokens: 40,
        reasoningTokens: 12,
      },
    });
  });

  it('reads a stream split every 3 bytes, multi-byte characters included', async () => {
    server = await scriptedServer({ events: textStream(['Grüße ', 'aus 東京 ☕']), chunkSize: 3 });
    const { message } = finishOf(await collect(testModel(server).stream(hi)));
    expect(message.content).toEqual([{ type: 'text', text: 'Grüße aus 東京 ☕' }]);
  });

  it('streams thoughts as one thinking part with their signature, then the answer', async () => {
    server = await scriptedServer({
      events: [
        chunk([{ text: 'Counting the ', thought: true }]),
        chunk([{ text: 'letters.', thought: true, thoughtSignature: 'sig-thought' }]),
        chunk([{ text: 'Three.' }], 'STOP'),
      ],
    });
    const events = await collect(testModel(server).stream(hi));
    expect(events.filter((e) => e.type === 'thinking-delta').map((e) => e.index)).toEqual([0, 0]);
    expect(finishOf(events).message.content).toEqual([
      { type: 'thinking', text: 'Counting the letters.', signature: 'sig-thought' },
      { type: 'text', text: 'Three.' },
    ]);
  });

  it('streams parallel function calls, one with no arguments, and finishes with tool-calls', async () => {
    server = await scriptedServer({
      events: [
        chunk([{ functionCall: { name: 'read', args: { path: 'a.md' } }, thoughtSignature: 'sig-call' }]),
        chunk([
          { functionCall: { name: 'read', args: { path: 'b.md' } } },
          { functionCall: { name: 'now' } },
        ]),
        chunk([{ text: '' }], 'STOP'),
      ],
    });
    const events = await collect(testModel(server).stream(hi));
    const { reason, message } = finishOf(events);
    expect(reason).toBe('tool-calls');
    expect(message.content).toEqual([
      {
        type: 'provider',
        provider: 'google',
        kind: 'thought_signature',
        data: { thoughtSignature: 'sig-call' },
        text: 'thought signature',
      },
      { type: 'tool-call', id: 'resp-test-1_1', name: 'read', args: { path: 'a.md' } },
      { type: 'tool-call', id: 'resp-test-1_2', name: 'read', args: { path: 'b.md' } },
      { type: 'tool-call', id: 'resp-test-1_3', name: 'now', args: {} },
    ]);
    expect(events.filter((e) => e.type === 'toolcall-delta').map((e) => e.argsText)).toEqual([
      '{"path":"a.md"}',
      '{"path":"b.md"}',
      '{}',
    ]);
  });

  it("keeps Gemini's own call ids and sends them back with the function responses", async () => {
    server = await scriptedServer(
      { events: [chunk([{ functionCall: { id: 'fc-7', name: 'now', args: {} } }], 'STOP')] },
      { events: textStream(['Noon.']) },
    );
    const model = testModel(server);
    const { message } = finishOf(await collect(model.stream(hi)));
    expect(message.content).toEqual([
      { type: 'tool-call', id: 'fc-7', name: 'now', args: {}, itemId: 'fc-7' },
    ]);
    await collect(
      model.stream({
        messages: [
          ...hi.messages,
          message,
          {
            role: 'tool',
            toolCallId: 'fc-7',
            toolName: 'now',
            content: [{ type: 'text', text: '12:00' }],
            isError: false,
            timestamp: 0,
          },
        ],
      }),
    );
    expect(bodyOf(server, 1).contents).toEqual([
      { role: 'user', parts: [{ text: 'Hi' }] },
      { role: 'model', parts: [{ functionCall: { id: 'fc-7', name: 'now', args: {} } }] },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'fc-7', name: 'now', response: { output: '12:00' } } }],
      },
    ]);
  });

  it('ends with content-filter on a safety stop and on a blocked prompt', async () => {
    server = await scriptedServer(
      {
        events: [
          chunk([{ text: 'I' }]),
          chunk([], 'SAFETY', {
            safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'HIGH', blocked: true }],
          }),
        ],
      },
      {
        events: [
          {
            data: {
              promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
              usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 },
            },
          },
        ],
      },
    );
    const model = testModel(server);
    const safety = finishOf(await collect(model.stream(hi)));
    expect(safety.reason).toBe('content-filter');
    expect(safety.message.providerMetadata).toMatchObject({ safetyRatings: [{ blocked: true }] });
    const blocked = finishOf(await collect(model.stream(hi)));
    expect(blocked.reason).toBe('content-filter');
    expect(blocked.message.providerMetadata).toEqual({
      promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
    });
  });

  it('maps MAX_TOKENS to length', async () => {
    server = await scriptedServer({ events: textStream(['Once upon'], 'MAX_TOKENS') });
    expect(finishOf(await collect(testModel(server).stream(hi))).reason).toBe('length');
  });

  it('aborts the request when unsubscribed', async () => {
    server = await scriptedServer({ events: [chunk([{ text: 'Thinking' }])], after: 'stall' });
    const first = firstValueFrom(testModel(server).stream(hi));
    await expect(first).resolves.toMatchObject({ type: 'text-delta', text: 'Thinking' });
    await server.requests[0]!.closedByClient;
    expect(server.requests[0]!.clientClosed).toBe(true);
  });

  it('fails with StreamIdleError (the partial attached) after idleTimeoutMs of silence, on the scheduler', async () => {
    server = await scriptedServer({ events: [chunk([{ text: 'Thinking' }])], after: 'stall' });
    const scheduler = new VirtualTimeScheduler();
    const stream$ = testModel(server, { scheduler, idleTimeoutMs: 30_000 }).stream(hi);
    const errors: unknown[] = [];
    const arrived = new Promise<ModelEvent>((resolve) =>
      stream$
        .pipe(filter((e) => e.type === 'text-delta'))
        .subscribe({ next: resolve, error: (e: unknown) => errors.push(e) }),
    );
    await arrived;
    scheduler.flush();
    expect(StreamIdleError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as StreamIdleError).partial?.content).toEqual([{ type: 'text', text: 'Thinking' }]);
    await server.requests[0]!.closedByClient;
  });

  it('stamps the message with the scheduler clock', async () => {
    server = await scriptedServer({ events: textStream(['ok']) });
    const scheduler = new VirtualTimeScheduler();
    scheduler.frame = 1234;
    const { message } = finishOf(
      await collect(
        testModel(server, { scheduler, idleTimeoutMs: 0 }).stream({ messages: [userMessage('Hi')] }),
      ),
    );
    expect(message.timestamp).toBe(1234);
  });
});
