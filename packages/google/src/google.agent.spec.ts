import { z } from 'zod';
import { runAgent, tool, type AgentEvent } from '@rxagent/core';
import { collectEvents, type SseTestServer } from '@rxagent/testing';
import { bodyOf, chunk, scriptedServer, testModel, textStream } from './test-support/google-fixtures.test.js';

// `runAgent` end to end over the real SDK: tools, thought signatures sent back verbatim,
// structured output with the native response schema, and a 429 retried by the core.

let server: SseTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const weather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: 21 }),
});

const contentsOf = (i: number) =>
  bodyOf(server!, i).contents as { role: string; parts: Record<string, unknown>[] }[];

describe('Gemini in runAgent', () => {
  it('runs a tool and sends the call back with its thought signature, the result as a functionResponse', async () => {
    server = await scriptedServer(
      {
        events: [
          chunk([{ text: 'Checking the weather.', thought: true, thoughtSignature: 'sig-thought' }]),
          chunk([
            { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'sig-call' },
          ]),
          chunk([{ text: '', thoughtSignature: 'sig-end' }], 'STOP'),
        ],
      },
      { events: textStream(['21 °C in Paris.']) },
    );
    const events = await collectEvents(
      runAgent({ model: testModel(server), prompt: 'Weather in Paris?', tools: [weather], thinking: 'low' }),
    );
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
    expect(events.find((e) => e.type === 'tool-end')).toMatchObject({
      toolName: 'get_weather',
      isError: false,
    });
    const first = bodyOf(server, 0);
    expect(first.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Current weather for a city',
            parametersJsonSchema: expect.objectContaining({ type: 'object', required: ['city'] }),
          },
        ],
      },
    ]);
    expect(first.generationConfig).toMatchObject({
      thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
    });
    expect(contentsOf(1)).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      {
        role: 'model',
        parts: [
          { text: 'Checking the weather.', thought: true, thoughtSignature: 'sig-thought' },
          { functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'sig-call' },
          { text: '', thoughtSignature: 'sig-end' },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { output: '{"city":"Paris","tempC":21}' } } },
        ],
      },
    ]);
  });

  it('asks for structured output with the native response schema', async () => {
    server = await scriptedServer({ events: textStream(['{"city":"Paris",', '"tempC":21}']) });
    const events = await collectEvents(
      runAgent({
        model: testModel(server),
        prompt: 'Weather in Paris?',
        output: z.object({ city: z.string(), tempC: z.number() }),
        outputMode: 'native',
      }),
    );
    const end = events.at(-1) as Extract<AgentEvent, { type: 'agent-end' }>;
    expect(end.reason).toBe('completed');
    expect(events.filter((e) => e.type === 'output-update').at(-1)).toMatchObject({
      output: { city: 'Paris', tempC: 21 },
    });
    expect(bodyOf(server, 0).generationConfig).toMatchObject({
      responseMimeType: 'application/json',
      responseJsonSchema: expect.objectContaining({ type: 'object', required: ['city', 'tempC'] }),
    });
  });

  it('retries a 429 after the RetryInfo delay, as a visible retry', async () => {
    server = await scriptedServer(
      {
        status: 429,
        json: {
          error: {
            code: 429,
            message: 'Resource exhausted.',
            status: 'RESOURCE_EXHAUSTED',
            details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.02s' }],
          },
        },
      },
      { events: textStream(['Hello.']) },
    );
    const events = await collectEvents(runAgent({ model: testModel(server), prompt: 'Hi' }));
    expect(events.find((e) => e.type === 'retry')).toMatchObject({
      attempt: 1,
      delayMs: 20,
      error: { name: 'RateLimitError' },
    });
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
    expect(server.requests).toHaveLength(2);
  });
});
