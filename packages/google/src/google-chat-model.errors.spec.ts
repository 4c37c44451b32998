import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AuthError,
  ContextOverflowError,
  NetworkError,
  OverloadedError,
  PartialStreamError,
  ProviderError,
  RateLimitError,
} from '@rxagent/core';
import { serializeError } from '@rxagent/core/provider';
import type { SseTestServer } from '@rxagent/testing';
import { google } from './google.js';
import {
  API_KEY,
  chunk,
  hi,
  scriptedServer,
  streamError,
  testModel,
} from './test-support/google-fixtures.test.js';

// Failures through the real SDK: HTTP errors with Google's error body, errors inside a 200
// stream, cuts, and what never reaches the server. The key never appears in an error.

let server: SseTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const RETRY_INFO = JSON.parse(
  readFileSync(join(__dirname, '__fixtures__', 'google-429-retry-info.json'), 'utf8'),
) as unknown;

function expectNoKey(error: unknown) {
  expect(JSON.stringify(serializeError(error))).not.toContain(API_KEY);
  expect(String((error as Error).stack)).not.toContain(API_KEY);
  expect(JSON.stringify((error as ProviderError).body ?? null)).not.toContain(API_KEY);
}

describe('GoogleChatModel errors', () => {
  it("reads a 429's RetryInfo as retryAfterMs (recorded body)", async () => {
    server = await scriptedServer({ status: 429, json: RETRY_INFO });
    const error = await streamError(testModel(server).stream(hi));
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      status: 429,
      code: 'RESOURCE_EXHAUSTED',
      retryable: true,
      retryAfterMs: 34_400,
      provider: 'google',
    });
  });

  it("prefers a 429's retry-after header to the body", async () => {
    server = await scriptedServer({ status: 429, headers: { 'retry-after': '2' }, json: RETRY_INFO });
    expect(await streamError(testModel(server).stream(hi))).toMatchObject({ retryAfterMs: 2000 });
  });

  it('reports an invalid key (400 API_KEY_INVALID) and a 403 as AuthError, the key redacted', async () => {
    server = await scriptedServer(
      {
        status: 400,
        json: {
          error: {
            code: 400,
            message: `API key not valid: ${API_KEY}. Please pass a valid API key.`,
            status: 'INVALID_ARGUMENT',
            details: [
              {
                '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                reason: 'API_KEY_INVALID',
                domain: 'googleapis.com',
              },
            ],
          },
        },
      },
      {
        status: 403,
        json: { error: { code: 403, message: 'Permission denied', status: 'PERMISSION_DENIED' } },
      },
    );
    const invalid = await streamError(testModel(server).stream(hi));
    expect(AuthError.isInstance(invalid)).toBe(true);
    expect((invalid as Error).message).toContain('[redacted]');
    expectNoKey(invalid);
    const denied = await streamError(testModel(server).stream(hi));
    expect(AuthError.isInstance(denied)).toBe(true);
    expect((denied as AuthError).retryable).toBe(false);
  });

  it('reports a prompt over the context window as ContextOverflowError', async () => {
    server = await scriptedServer({
      status: 400,
      json: {
        error: {
          code: 400,
          message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).',
          status: 'INVALID_ARGUMENT',
        },
      },
    });
    const error = await streamError(testModel(server).stream(hi));
    expect(ContextOverflowError.isInstance(error)).toBe(true);
    expect((error as ContextOverflowError).retryable).toBe(false);
  });

  it('reports 503 as OverloadedError and 500 as a retryable ProviderError', async () => {
    server = await scriptedServer(
      {
        status: 503,
        json: {
          error: {
            code: 503,
            message: 'The model is overloaded. Please try again later.',
            status: 'UNAVAILABLE',
          },
        },
      },
      { status: 500, json: { error: { code: 500, message: 'Internal error', status: 'INTERNAL' } } },
    );
    const overloaded = await streamError(testModel(server).stream(hi));
    expect(OverloadedError.isInstance(overloaded)).toBe(true);
    expect(overloaded).toMatchObject({ retryable: true, status: 503 });
    const internal = await streamError(testModel(server).stream(hi));
    expect(internal).toMatchObject({ name: 'ProviderError', retryable: true, status: 500, code: 'INTERNAL' });
  });

  it('classifies an error inside a 200 stream by its code', async () => {
    server = await scriptedServer({
      events: [
        chunk([{ text: 'Hal' }]),
        { data: { error: { code: 503, message: 'Overloaded', status: 'UNAVAILABLE' } } },
      ],
    });
    const error = await streamError(testModel(server).stream(hi));
    expect(OverloadedError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('in the stream');
  });

  it('reports a stream cut mid-body as PartialStreamError with what arrived', async () => {
    server = await scriptedServer({ events: [chunk([{ text: 'Half an ans' }])], after: 'cut' });
    const error = await streamError(testModel(server).stream(hi));
    expect(PartialStreamError.isInstance(error)).toBe(true);
    expect((error as PartialStreamError).partial?.content).toEqual([{ type: 'text', text: 'Half an ans' }]);
    expect((error as PartialStreamError).retryable).toBe(true);
  });

  it('reports a stream that ends without a finish reason as PartialStreamError', async () => {
    server = await scriptedServer({ events: [chunk([{ text: 'No end' }])] });
    const error = await streamError(testModel(server).stream(hi));
    expect(PartialStreamError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('Gemini');
  });

  it('reports a body that stops inside an event as PartialStreamError', async () => {
    server = await scriptedServer({ events: [chunk([{ text: 'ok' }]), { raw: 'data: {"candidates": [' }] });
    expect(PartialStreamError.isInstance(await streamError(testModel(server).stream(hi)))).toBe(true);
  });

  it('reports a refused connection as NetworkError', async () => {
    server = await scriptedServer({ events: [] });
    const url = server.url;
    await server.close();
    server = undefined;
    const error = await streamError(google('gemini-test', { apiKey: API_KEY, baseURL: url }).stream(hi));
    expect(NetworkError.isInstance(error)).toBe(true);
    expect((error as NetworkError).retryable).toBe(true);
  });

  it('fails with AuthError on subscribe when there is no key, sending nothing', async () => {
    server = await scriptedServer({ events: [] });
    const saved = { gemini: process.env.GEMINI_API_KEY, google: process.env.GOOGLE_API_KEY };
    delete process.env.GEMINI_API_KEY;
    delete process.env.GOOGLE_API_KEY;
    try {
      const error = await streamError(google('gemini-test', { baseURL: server.url }).stream(hi));
      expect(AuthError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/apiKey.*GEMINI_API_KEY/);
      expect(server.requests).toHaveLength(0);
    } finally {
      if (saved.gemini !== undefined) process.env.GEMINI_API_KEY = saved.gemini;
      if (saved.google !== undefined) process.env.GOOGLE_API_KEY = saved.google;
    }
  });

  it('keeps the key out of an in-stream error that echoes it', async () => {
    server = await scriptedServer({
      events: [{ data: { error: { code: 500, message: `internal: key ${API_KEY}`, status: 'INTERNAL' } } }],
    });
    const error = await streamError(testModel(server).stream(hi));
    expect(ProviderError.isInstance(error)).toBe(true);
    expectNoKey(error);
  });
});
