import { lastValueFrom, toArray } from 'rxjs';
import { userMessage, type ChatRequest, type ModelEvent } from '@rxagent/core';
import { openai } from '@rxagent/openai';
import { startSseTestServer, type SseTestServer } from '@rxagent/testing';
import { proxyModel } from './proxy-model.js';
import { serveModel, type ModelServer, type ServeModelOptions } from './serve-model.js';
import { chatText, PROXY_TOKEN, UPSTREAM_KEY } from './test-support/proxy-fixtures.test.js';

let upstream: SseTestServer;
let server: ModelServer | undefined;

beforeEach(async () => {
  upstream = await startSseTestServer(() => chatText(['Hi']));
});
afterEach(async () => {
  await server?.close();
  await upstream.close();
});

async function serve(options: Partial<ServeModelOptions> = {}) {
  const model = openai('gpt-4o-mini', { apiKey: UPSTREAM_KEY, baseURL: `${upstream.url}/v1` });
  server = await serveModel(model, { token: PROXY_TOKEN, ...options });
  return proxyModel({ url: server.url, token: PROXY_TOKEN });
}

async function outcome(model: Awaited<ReturnType<typeof serve>>, request: ChatRequest) {
  try {
    return { events: await lastValueFrom(model.stream(request).pipe(toArray())) };
  } catch (error) {
    return { error: error as Error & { status?: number; retryable?: boolean } };
  }
}

// What a token holder (any visitor of a page that embeds the token) may send.
const billingKnobs = {
  model: 'o1-pro',
  n: 16,
  stream_options: { include_usage: false },
  store: true,
};
const messages = [userMessage('Hi')];

describe('serveModel: the server decides the model and the billing knobs', () => {
  it('refuses provider options by default, before calling the model', async () => {
    const client = await serve();
    const { error } = await outcome(client, { messages, providerOptions: { openai: billingKnobs } });
    expect(error).toMatchObject({ name: 'ProviderError', status: 400, retryable: false });
    expect(error?.message).toBe(
      'The model proxy does not let clients set providerOptions.openai.model, providerOptions.openai.n, ' +
        'providerOptions.openai.stream_options, providerOptions.openai.store: the server decides them. ' +
        "Leave them out, or allow them on the server: serveModel(model, { allowProviderOptions: { openai: ['model', 'n', 'stream_options', 'store'] } }).",
    );
    expect(upstream.requests).toHaveLength(0);
  });

  it('passes the allowed options only; the model and usage reporting stay the server’s', async () => {
    const client = await serve({ allowProviderOptions: { openai: ['user', 'stream_options'] } });
    const { events } = await outcome(client, {
      messages,
      providerOptions: { openai: { user: 'visitor-7', stream_options: { include_usage: false } } },
    });
    expect(upstream.requests[0]?.body).toMatchObject({
      model: 'gpt-4o-mini',
      user: 'visitor-7',
      stream_options: { include_usage: true },
    });
    const usage = events?.find((e): e is Extract<ModelEvent, { type: 'usage' }> => e.type === 'usage');
    expect(usage?.usage).toMatchObject({ inputTokens: 10, outputTokens: 3 });
    const { error } = await outcome(client, { messages, providerOptions: { openai: { n: 16 } } });
    expect(error?.message).toMatch(/^The model proxy does not let clients set providerOptions\.openai\.n:/);
    expect(upstream.requests).toHaveLength(1);
  });

  it('refuses provider-hosted tools unless allowed, and caps maxTokens when asked', async () => {
    const client = await serve({ maxTokens: 512 });
    const hosted: ChatRequest = {
      messages,
      tools: [
        {
          name: 'search',
          description: 'Web search',
          parameters: { type: 'object' },
          providerTools: { openai: { type: 'web_search' } },
        },
      ],
    };
    const { error } = await outcome(client, hosted);
    expect(error?.message).toBe(
      'The model proxy does not let clients declare provider tools (tool "search"): the provider may bill them. ' +
        'Send function tools, or allow them on the server: serveModel(model, { allowProviderTools: true }).',
    );
    const over = await outcome(client, { messages, maxTokens: 100_000 });
    expect(over.error?.message).toBe(
      'The model proxy accepts maxTokens up to 512 (the request asked for 100000): ask for fewer.',
    );
    expect(upstream.requests).toHaveLength(0);
    await outcome(client, { messages });
    expect(upstream.requests[0]?.body).toMatchObject({ max_completion_tokens: 512 });
  });
});
