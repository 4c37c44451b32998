import { userMessage, type ChatRequest } from '@rxagent/core';
import type { SseTestServer } from '@rxagent/testing';
import { openai } from './openai.js';
import {
  API_KEY,
  RESPONSES_START,
  chatText,
  collect,
  responsesCompleted,
  responsesMessage,
  scriptedServer,
  testModel,
} from './test-support/openai-fixtures.test.js';

const hi: ChatRequest = { messages: [userMessage('Hi')] };
const HEADERS = {
  'x-ratelimit-limit-requests': '500',
  'x-ratelimit-remaining-requests': '499',
  'x-ratelimit-reset-requests': '120ms',
  'x-ratelimit-limit-tokens': '30000',
  'x-ratelimit-remaining-tokens': '29990',
  'x-ratelimit-reset-tokens': '20ms',
};
const LIMITS = {
  requests: { limit: 500, remaining: 499, resetMs: 120 },
  tokens: { limit: 30_000, remaining: 29_990, resetMs: 20 },
};

let server: SseTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('OpenAI rate-limit headers', () => {
  it('come first as a rate-limit event on a chat stream, and the message is unchanged', async () => {
    server = await scriptedServer({ headers: HEADERS, events: chatText(['Hel', 'lo']) });
    const events = await collect(testModel(server).stream(hi));
    expect(events[0]).toEqual({ type: 'rate-limit', limits: LIMITS });
    expect(events.slice(1).map((e) => e.type)).toEqual(['text-delta', 'text-delta', 'usage', 'finish']);
  });

  it('come first on a Responses stream too', async () => {
    server = await scriptedServer({
      headers: HEADERS,
      events: [...RESPONSES_START, ...responsesMessage(0, ['Hi']), responsesCompleted()],
    });
    const model = openai('gpt-test', { api: 'responses', apiKey: API_KEY, baseURL: `${server.url}/v1` });
    const events = await collect(model.stream(hi));
    expect(events[0]).toEqual({ type: 'rate-limit', limits: LIMITS });
    expect(events.at(-1)?.type).toBe('finish');
  });

  it('name the headers they could not read, and are absent when the server sends none', async () => {
    server = await scriptedServer(
      { headers: { 'x-ratelimit-remaining-tokens': 'plenty' }, events: chatText(['Hi']) },
      { events: chatText(['Hi']) },
    );
    const garbage = await collect(testModel(server).stream(hi));
    expect(garbage[0]).toEqual({ type: 'rate-limit', limits: {}, ignored: ['x-ratelimit-remaining-tokens'] });
    const none = await collect(testModel(server).stream(hi));
    expect(none.some((e) => e.type === 'rate-limit')).toBe(false);
  });
});
