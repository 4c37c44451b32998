import OpenAI from 'openai';
import { AgentConfigError, AuthError, userMessage, type ChatRequest } from '@rxagent/core';
import type { SseTestServer } from '@rxagent/testing';
import { OpenAIChatModel } from './openai-chat-model.js';
import { OpenAIResponsesModel } from './openai-responses-model.js';
import { openai } from './openai.js';
import { chatText, collect, scriptedServer, streamError } from './test-support/openai-fixtures.test.js';

const hi: ChatRequest = { messages: [userMessage('Hi')] };
const savedEnv = { key: process.env.OPENAI_API_KEY, url: process.env.OPENAI_BASE_URL };
let server: SseTestServer | undefined;

const restore = (name: string, value: string | undefined) => {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
};

beforeEach(() => {
  delete process.env.OPENAI_API_KEY;
  delete process.env.OPENAI_BASE_URL;
});

afterEach(async () => {
  restore('OPENAI_API_KEY', savedEnv.key);
  restore('OPENAI_BASE_URL', savedEnv.url);
  await server?.close();
  server = undefined;
});

describe('openai()', () => {
  it('makes a chat model by default and a responses model on request', () => {
    const chat = openai('gpt-4o-mini');
    expect(chat).toBeInstanceOf(OpenAIChatModel);
    expect(chat).toMatchObject({ provider: 'openai', modelId: 'gpt-4o-mini' });
    expect(openai('gpt-5-mini', { api: 'responses' })).toBeInstanceOf(OpenAIResponsesModel);
  });

  it('rejects an empty model id and an unknown api with AgentConfigError', () => {
    expect(() => openai('')).toThrow(AgentConfigError);
    expect(() => openai('gpt-4o', { api: 'completions' as never })).toThrow(/use 'chat' or 'responses'/);
  });

  it('emits AuthError on subscribe, before any request, when there is no key', async () => {
    server = await scriptedServer({ events: chatText(['never']) });
    const model = openai('gpt-4o-mini', { baseURL: `${server.url}/v1` });
    const stream$ = model.stream(hi); // creating the stream is not an error: it is cold
    const error = await streamError(stream$);
    expect(AuthError.isInstance(error)).toBe(true);
    expect((error as AuthError).message).toMatch(/pass apiKey.*OPENAI_API_KEY/);
    expect(server.requests).toHaveLength(0);
  });

  it('reads the key from OPENAI_API_KEY and the base URL from OPENAI_BASE_URL', async () => {
    server = await scriptedServer({ events: chatText(['ok']) });
    process.env.OPENAI_API_KEY = 'sk-from-env';
    process.env.OPENAI_BASE_URL = `${server.url}/v1`;
    await collect(openai('gpt-4o-mini').stream(hi));
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-from-env');
  });

  it('sends nothing until subscribed, then organization, project and extra headers', async () => {
    server = await scriptedServer({ events: chatText(['ok']) });
    const model = openai('gpt-4o-mini', {
      apiKey: 'sk-x',
      baseURL: `${server.url}/v1`,
      organization: 'org-1',
      project: 'proj-1',
      headers: { 'x-trace': 'abc' },
    });
    const stream$ = model.stream(hi);
    expect(server.requests).toHaveLength(0);
    await collect(stream$);
    expect(server.requests[0]!.headers).toMatchObject({
      'openai-organization': 'org-1',
      'openai-project': 'proj-1',
      'x-trace': 'abc',
    });
  });

  it('uses a given client as is, but never lets it retry', async () => {
    server = await scriptedServer({
      status: 500,
      json: { error: { message: 'boom', type: 'server_error' } },
    });
    const client = new OpenAI({ apiKey: 'sk-client', baseURL: `${server.url}/v1`, maxRetries: 5 });
    const error = await streamError(openai('gpt-4o-mini', { client }).stream(hi));
    expect(error).toMatchObject({ status: 500, retryable: true });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers.authorization).toBe('Bearer sk-client');
  });
});
