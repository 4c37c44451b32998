import OpenAI from 'openai';
import { inspect } from 'node:util';
import { runAgent, userMessage } from '@rxagent/core';
import {
  secretLeaks,
  settleRun,
  startSseTestServer,
  type RecordedRequest,
  type SseScript,
  type SseStep,
} from '@rxagent/testing';
import { openai } from './openai.js';
import {
  RESPONSES_START,
  chatChunk,
  responsesEvent,
  responsesMessage,
  streamError,
} from './test-support/openai-fixtures.test.js';

// The key of the user's own client, which the adapter never sees as an option. Short enough
// (≤ 20 characters) that V8 quotes the whole text in a `JSON.parse` error of a chunk made of it.
const CLIENT_KEY = 'sk-own-client-9876';

/** The key the server received, echoed back as servers sometimes do. */
const echoed = (request: RecordedRequest) => String(request.headers['authorization'] ?? '').slice(7);

const apis = {
  chat: {
    inStreamError: (key: string): SseStep[] => [
      chatChunk({ role: 'assistant', content: 'Hel' }),
      { data: { error: { code: 'server_error', message: `stream failed for ${key}` } } },
    ],
    start: (): SseStep[] => [chatChunk({ role: 'assistant', content: 'Hel' })],
  },
  responses: {
    inStreamError: (key: string): SseStep[] => [
      ...RESPONSES_START,
      ...responsesMessage(0, ['Hel']),
      responsesEvent('error', { code: 'server_error', message: `stream failed for ${key}`, param: null }),
    ],
    start: (): SseStep[] => [...RESPONSES_START],
  },
} as const;

type Api = keyof typeof apis;

const scenarios = (api: Api): [string, (request: RecordedRequest) => SseScript][] => [
  [
    '401 with the key in the body',
    (r) => ({
      status: 401,
      json: { error: { message: `Incorrect API key provided: ${echoed(r)}`, code: 'invalid_api_key' } },
    }),
  ],
  [
    '500 with the key in the message',
    (r) => ({
      status: 500,
      json: { error: { message: `Internal error while serving ${echoed(r)}`, type: 'server_error' } },
    }),
  ],
  ['an in-stream error event with the key', (r) => ({ events: apis[api].inStreamError(echoed(r)) })],
  [
    'a malformed chunk with the key',
    (r) => ({ events: [...apis[api].start(), { raw: `data: ${echoed(r)}\n\n` }] }),
  ],
];

/** Every place an error is read or logged from: message, serialized form, stack, inspect, causes. */
function expectSecretFree(error: unknown, secret: string): void {
  expect(error).toBeInstanceOf(Error);
  expect(secretLeaks(error, secret)).toEqual([]);
}

describe.each(['chat', 'responses'] as const)(
  'openai({ client }) over the %s API keeps the key out of errors',
  (api) => {
    const model = (url: string) =>
      openai('gpt-test', {
        api,
        client: new OpenAI({ apiKey: CLIENT_KEY, baseURL: `${url}/v1`, maxRetries: 0 }),
      });

    it.each(scenarios(api))('%s: model stream error', async (_name, script) => {
      const server = await startSseTestServer(script);
      try {
        const error = await streamError(model(server.url).stream({ messages: [userMessage('Hi')] }));
        expect(server.requests[0]?.headers['authorization']).toBe(`Bearer ${CLIENT_KEY}`);
        expectSecretFree(error, CLIENT_KEY);
        // The server's text did reach the error, redacted (so the checks above are not vacuous).
        expect(inspect(error, { depth: 10 })).toContain('[redacted]');
      } finally {
        await server.close();
      }
    });

    it.each(scenarios(api))('%s: retry events and the error of a runAgent run', async (name, script) => {
      const server = await startSseTestServer(script);
      try {
        const { events, error } = await settleRun(
          runAgent({
            model: model(server.url),
            prompt: 'Hi',
            maxRetries: 2,
            retryBackoff: { initialDelayMs: 1, maxDelayMs: 1, jitter: 0 },
          }),
        );
        const retries = events.filter((event) => event.type === 'retry');
        if (!name.startsWith('401')) expect(retries.length).toBeGreaterThan(0);
        expect(JSON.stringify(retries)).not.toContain(CLIENT_KEY);
        expect(JSON.stringify(events)).not.toContain(CLIENT_KEY);
        if (error !== undefined) expectSecretFree(error, CLIENT_KEY);
      } finally {
        await server.close();
      }
    });
  },
);
