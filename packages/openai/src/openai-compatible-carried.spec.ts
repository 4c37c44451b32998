import { z } from 'zod';
import { tool, type ChatModel } from '@rxagent/core';
import { toToolSpec } from '@rxagent/core/provider';
import type { SseTestServer } from '@rxagent/testing';
import {
  CHAT_DONE,
  chatChunk,
  chatText,
  chatUsageChunk,
  collect,
  finishOf,
  scriptedServer,
  streamError,
  testModel,
} from './test-support/openai-fixtures.test.js';
import { StrictSchemaError, toOpenAIStrictSchema } from './to-openai-strict-schema.js';

// What OpenAI-compatible servers send beyond OpenAI's own chunks (authored after the servers'
// API references: Mistral's content parts, Perplexity's citations), through the official SDK.

let server: SseTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const chat = (s: SseTestServer): ChatModel => testModel(s);
const ask = { messages: [{ role: 'user' as const, content: 'Hi', timestamp: 0 }] };

describe('OpenAI-compatible servers', () => {
  it('reads content sent as an array of thinking and text parts (Mistral magistral)', async () => {
    server = await scriptedServer({
      events: [
        chatChunk({ role: 'assistant', content: [] }),
        chatChunk({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Let me ' }] }] }),
        chatChunk({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'think.' }] }] }),
        chatChunk({ content: [{ type: 'text', text: 'Hello' }] }),
        chatChunk({ content: ' there.' }),
        chatChunk({}, 'stop'),
        chatUsageChunk(),
        CHAT_DONE,
      ],
    });
    const message = finishOf(await collect(chat(server).stream(ask))).message;
    expect(message.content).toEqual([
      { type: 'thinking', text: 'Let me think.' },
      { type: 'text', text: 'Hello there.' },
    ]);
  });

  it('keeps Perplexity-style citations on the text part', async () => {
    const [role, ...rest] = chatText(['Paris is ', 'the capital [1].']);
    const cite = (step: (typeof rest)[number]) =>
      typeof step === 'object' && step !== null && 'data' in step && typeof step.data === 'object'
        ? { ...step, data: { ...step.data, citations: ['https://en.wikipedia.org/wiki/Paris'] } }
        : step;
    server = await scriptedServer({ events: [role!, ...rest.map(cite)] });
    const message = finishOf(await collect(chat(server).stream(ask))).message;
    expect(message.content).toEqual([
      {
        type: 'text',
        text: 'Paris is the capital [1].',
        citations: [
          {
            kind: 'url',
            url: 'https://en.wikipedia.org/wiki/Paris',
            raw: 'https://en.wikipedia.org/wiki/Paris',
          },
        ],
      },
    ]);
  });
});

describe('strict function schemas', () => {
  const search = tool({
    name: 'search',
    description: 'Search',
    parameters: z.object({
      query: z.string(),
      limit: z.number().optional(),
      sort: z.enum(['new', 'top']).optional(),
      filter: z.object({ lang: z.string().optional() }).optional(),
    }),
    strict: true,
    execute: () => '',
  });

  it('sends a strict tool with every property required, optional ones nullable and closed objects', async () => {
    server = await scriptedServer({ events: chatText(['ok']) });
    await collect(chat(server).stream({ ...ask, tools: [toToolSpec(search)] }));
    const [sent] = (server.requests[0]!.body as { tools: { function: Record<string, unknown> }[] }).tools;
    expect(sent!.function.strict).toBe(true);
    expect(sent!.function.parameters).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string' },
        limit: { type: ['number', 'null'] },
        sort: { type: ['string', 'null'], enum: ['new', 'top', null] },
        filter: {
          type: ['object', 'null'],
          properties: { lang: { type: ['string', 'null'] } },
          required: ['lang'],
          additionalProperties: false,
        },
      },
      required: ['query', 'limit', 'sort', 'filter'],
      additionalProperties: false,
    });
  });

  it('refuses what strict mode cannot express with a typed error naming the place and the fix', async () => {
    expect(() =>
      toOpenAIStrictSchema(
        { type: 'object', properties: {}, additionalProperties: { type: 'string' } },
        'tags',
      ),
    ).toThrow(StrictSchemaError);
    const refused = (() => {
      try {
        toOpenAIStrictSchema({ type: 'object', properties: { a: { not: { type: 'string' } } } }, 'odd');
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(StrictSchemaError);
    expect((refused as StrictSchemaError).path).toBe('#/properties/a/not');
    expect((refused as Error).message).toMatch(/"odd".*"not".*strict: false/);
    server = await scriptedServer({ events: chatText(['ok']) });
    const open = {
      name: 'open',
      description: 'x',
      parameters: { type: 'object', additionalProperties: true },
      strict: true,
    };
    expect(await streamError(chat(server).stream({ ...ask, tools: [open] }))).toBeInstanceOf(
      StrictSchemaError,
    );
    expect(server.requests).toHaveLength(0);
  });
});
