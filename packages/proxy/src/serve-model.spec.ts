import { lastValueFrom, take, throwError, toArray } from 'rxjs';
import {
  AuthError,
  RateLimitError,
  runAgent,
  userMessage,
  type ChatModel,
  type ModelEvent,
} from '@rxagent/core';
import { openai } from '@rxagent/openai';
import { startSseTestServer, type SseScript, type SseTestServer } from '@rxagent/testing';
import { proxyModel } from './proxy-model.js';
import { serveModel, type ModelServer } from './serve-model.js';
import {
  chatChunk,
  chatText,
  PROXY_TOKEN,
  SERVED_MODEL,
  UPSTREAM_KEY,
} from './test-support/proxy-fixtures.test.js';

let upstream: SseTestServer;
let server: ModelServer;
let scripts: SseScript[] = [];

beforeEach(async () => {
  upstream = await startSseTestServer((_r, i) => scripts[Math.min(i, scripts.length - 1)]!);
  const model = openai('gpt-test', { apiKey: UPSTREAM_KEY, baseURL: `${upstream.url}/v1` });
  server = await serveModel(model, { token: PROXY_TOKEN, allowOrigins: ['http://app.test'] });
});
afterEach(async () => {
  await server.close();
  await upstream.close();
});

const client = () => proxyModel({ url: server.url, token: PROXY_TOKEN });
const request = { messages: [userMessage('Hi')] };

async function failure(run: Promise<unknown>): Promise<unknown> {
  try {
    await run;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('serveModel + proxyModel', () => {
  it('streams the served model’s events; the answer names the upstream model', async () => {
    scripts = [chatText(['Hel', 'lo'])];
    const events = await lastValueFrom(client().stream(request).pipe(toArray()));
    expect(events.filter((e) => e.type === 'text-delta').map((e) => (e as { text: string }).text)).toEqual([
      'Hel',
      'lo',
    ]);
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      reason: 'stop',
      message: { provider: 'openai', model: SERVED_MODEL },
    });
    // The upstream got the key; nothing the client received carries it.
    expect(upstream.requests[0]?.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(JSON.stringify(events)).not.toContain(UPSTREAM_KEY);
  });

  it('runs an agent through the proxy', async () => {
    scripts = [chatText(['Done.'])];
    const events = await lastValueFrom(runAgent({ model: client(), prompt: 'Hi' }).pipe(toArray()));
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'agent-end', reason: 'completed' });
    expect(upstream.requests[0]?.body).toMatchObject({
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
  });

  it('passes typed errors on with retryable and retry-after kept, and no key', async () => {
    scripts = [
      {
        status: 429,
        headers: { 'retry-after': '3', 'x-should-retry': 'true' },
        json: { error: { message: 'Slow down', type: 'rate_limit' } },
      },
    ];
    const error = await failure(lastValueFrom(client().stream(request)));
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 3000, provider: 'openai' });
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain(
      UPSTREAM_KEY,
    );

    scripts = [{ status: 401, json: { error: { message: `Incorrect API key provided: ${UPSTREAM_KEY}` } } }];
    const auth = await failure(lastValueFrom(client().stream(request)));
    expect(AuthError.isInstance(auth)).toBe(true);
    expect(auth).toMatchObject({ retryable: false });
    expect((auth as Error).message).not.toContain(UPSTREAM_KEY);
  });

  it('refuses a wrong token without calling the model', async () => {
    scripts = [chatText(['never'])];
    const error = await failure(
      lastValueFrom(proxyModel({ url: server.url, token: 'guess' }).stream(request)),
    );
    expect(AuthError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/refused the token/);
    expect(upstream.requests).toHaveLength(0);
  });

  it('aborts the upstream call when the client unsubscribes', async () => {
    scripts = [{ events: [chatChunk({ role: 'assistant', content: 'Hel' })], after: 'stall' }];
    const first: ModelEvent[] = await lastValueFrom(client().stream(request).pipe(take(1), toArray()));
    expect(first).toEqual([{ type: 'text-delta', index: 0, text: 'Hel' }]);
    await upstream.requests[0]?.closedByClient;
    expect(upstream.requests[0]?.clientClosed).toBe(true);
  });

  it('answers CORS preflights for allowed origins only, and bad requests with typed errors', async () => {
    const ok = await fetch(`${server.url}/stream`, {
      method: 'OPTIONS',
      headers: { origin: 'http://app.test' },
    });
    expect([ok.status, ok.headers.get('access-control-allow-origin')]).toEqual([204, 'http://app.test']);
    const other = await fetch(`${server.url}/stream`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.test' },
    });
    expect(other.status).toBe(403);
    const bad = await fetch(`${server.url}/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PROXY_TOKEN}` },
      body: '{"nope":1}',
    });
    expect([bad.status, ((await bad.json()) as { error: { message: string } }).error.message]).toEqual([
      400,
      'The proxy request needs a ChatRequest object with a messages array.',
    ]);
  });

  it('an unreachable proxy is a retryable NetworkError', async () => {
    const url = server.url;
    await server.close();
    const error = await failure(lastValueFrom(proxyModel({ url, token: PROXY_TOKEN }).stream(request)));
    expect(error).toMatchObject({ name: 'NetworkError', retryable: true });
    server = await serveModel(openai('x', { apiKey: 'k', baseURL: upstream.url }), { token: PROXY_TOKEN });
  });

  it('answers a body over the limit with 413 and a typed error, never a reset connection', async () => {
    scripts = [chatText(['never'])];
    const huge = JSON.stringify({ messages: [userMessage('x'.repeat(17 * 1024 * 1024))] });
    const response = await fetch(`${server.url}/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PROXY_TOKEN}`, 'content-type': 'application/json' },
      body: huge,
    });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      'The request is larger than the proxy accepts (16777216 bytes): send a smaller ChatRequest, or raise maxBodyBytes on the server.',
    );
    // Sent in chunks, without a length: refused when the count passes the limit.
    const piece = new TextEncoder().encode('x'.repeat(1024 * 1024));
    let sent = 0;
    const chunked = await fetch(`${server.url}/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PROXY_TOKEN}` },
      body: new ReadableStream<Uint8Array>({
        pull: (controller) => (++sent > 17 ? controller.close() : controller.enqueue(piece)),
      }),
      duplex: 'half',
    });
    expect(chunked.status).toBe(413);
    // The same through proxyModel: a typed, non-retryable error, not a NetworkError to retry.
    const error = await failure(
      lastValueFrom(client().stream({ messages: [userMessage('x'.repeat(17 * 1024 * 1024))] })),
    );
    expect(error).toMatchObject({ name: 'ProviderError', status: 413, retryable: false });
    expect(upstream.requests).toHaveLength(0);
  });

  it('sends keep-alive pings while a stream is quiet; clients skip them', async () => {
    await server.close();
    const model = openai('gpt-test', { apiKey: UPSTREAM_KEY, baseURL: `${upstream.url}/v1` });
    server = await serveModel(model, { token: PROXY_TOKEN, pingIntervalMs: 20 });
    // The upstream answers one delta, then thinks in silence.
    scripts = [{ events: [chatChunk({ role: 'assistant', content: 'Hel' })], after: 'stall' }];
    const controller = new AbortController();
    const response = await fetch(`${server.url}/stream`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PROXY_TOKEN}` },
      body: JSON.stringify(request),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    // Waits for what it needs (no timer races it): the delta, then two pings after it.
    const pingsAfterDelta = () => {
      const at = text.indexOf('event: model-event');
      return at < 0 ? 0 : text.slice(at).split(': ping\n\n').length - 1;
    };
    while (pingsAfterDelta() < 2) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    controller.abort();
    expect(pingsAfterDelta()).toBeGreaterThanOrEqual(2);
    // proxyModel reads the same stream: pings are comments, never events.
    scripts = [chatText(['Hi'])];
    const events = await lastValueFrom(client().stream(request).pipe(toArray()));
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'usage', 'finish']);
  });

  it('redacts the secrets a served model declares from the errors it sends (a model other than the adapters)', async () => {
    await server.close();
    const key = 'sk-custom-served-key-9012';
    const leaky: ChatModel = {
      provider: 'custom',
      modelId: 'leaky',
      secrets: [key],
      stream: () => throwError(() => new AuthError(`Invalid API key ${key}`, { status: 401 })),
    };
    server = await serveModel(leaky, { token: PROXY_TOKEN });
    const error = await failure(lastValueFrom(client().stream(request)));
    expect(AuthError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('Invalid API key [redacted]');
  });
});
