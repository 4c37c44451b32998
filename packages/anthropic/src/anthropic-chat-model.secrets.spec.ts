import Anthropic from '@anthropic-ai/sdk';
import { inspect } from 'node:util';
import { runAgent, userMessage } from '@rxagent/core';
import {
  secretLeaks,
  settleRun,
  startSseTestServer,
  type RecordedRequest,
  type SseScript,
} from '@rxagent/testing';
import { anthropic } from './anthropic.js';
import { failure, messageStart, sse, textBlock } from './anthropic-stream-fixtures.test.js';

// Credentials of the user's own client, which the adapter never sees as options. Short enough
// (≤ 20 characters) that V8 quotes the whole text in a `JSON.parse` error of a chunk made of it.
const CLIENT_KEY = 'sk-ant-own-key-9876';
const CLIENT_TOKEN = 'sk-ant-own-tok-1234';

/** The credential the server received, echoed back as servers sometimes do. */
const echoed = (request: RecordedRequest) => String(request.headers['authorization'] ?? '').slice(7);

const errorBody = (type: string, message: string) => ({ type: 'error', error: { type, message } });

const scenarios: [string, (request: RecordedRequest) => SseScript][] = [
  [
    '401 with the key in the body',
    (r) => ({ status: 401, json: errorBody('authentication_error', `invalid x-api-key ${echoed(r)}`) }),
  ],
  [
    '500 with the key in the message',
    (r) => ({ status: 500, json: errorBody('api_error', `Internal error while serving ${echoed(r)}`) }),
  ],
  [
    'an in-stream error event with the key',
    (r) => ({
      events: [
        messageStart(),
        ...textBlock(0, 'Hel'),
        sse('error', { error: { type: 'api_error', message: `stream failed for ${echoed(r)}` } }),
      ],
    }),
  ],
  [
    'a malformed chunk with the key',
    (r) => ({
      events: [messageStart(), { raw: `event: content_block_delta\ndata: ${echoed(r)}\n\n` }],
    }),
  ],
];

/** Every place an error is read or logged from: message, serialized form, stack, inspect, causes. */
function expectSecretFree(error: unknown, secret: string): void {
  expect(error).toBeInstanceOf(Error);
  expect(secretLeaks(error, secret)).toEqual([]);
}

describe.each([
  ['apiKey', CLIENT_KEY, (baseURL: string) => new Anthropic({ apiKey: CLIENT_KEY, baseURL, maxRetries: 0 })],
  [
    'authToken',
    CLIENT_TOKEN,
    (baseURL: string) => new Anthropic({ authToken: CLIENT_TOKEN, apiKey: null, baseURL, maxRetries: 0 }),
  ],
] as const)(
  'anthropic({ client }) with the client %s keeps it out of errors',
  (_label, secret, makeClient) => {
    it.each(scenarios)('%s: model stream error', async (_name, script) => {
      const server = await startSseTestServer(script);
      try {
        const model = anthropic('claude-test', { client: makeClient(server.url) });
        const error = await failure(model.stream({ messages: [userMessage('Hi')] }));
        expect(server.requests[0]?.headers['authorization']).toBe(`Bearer ${secret}`);
        expectSecretFree(error, secret);
        // The server's text did reach the error, redacted (so the checks above are not vacuous).
        expect(inspect(error, { depth: 10 })).toContain('[redacted]');
      } finally {
        await server.close();
      }
    });

    it.each(scenarios)('%s: retry events and the error of a runAgent run', async (name, script) => {
      const server = await startSseTestServer(script);
      try {
        const model = anthropic('claude-test', { client: makeClient(server.url) });
        const { events, error } = await settleRun(
          runAgent({
            model,
            prompt: 'Hi',
            maxRetries: 2,
            retryBackoff: { initialDelayMs: 1, maxDelayMs: 1, jitter: 0 },
          }),
        );
        const retries = events.filter((event) => event.type === 'retry');
        if (!name.startsWith('401')) expect(retries.length).toBeGreaterThan(0);
        expect(JSON.stringify(retries)).not.toContain(secret);
        expect(JSON.stringify(events)).not.toContain(secret);
        if (error !== undefined) expectSecretFree(error, secret);
      } finally {
        await server.close();
      }
    });
  },
);
