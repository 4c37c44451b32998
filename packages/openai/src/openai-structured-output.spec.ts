import { z } from 'zod';
import { runAgent, StructuredOutputError, tool, type AgentEvent } from '@rxagent/core';
import { collectEvents, type SseScript, type SseTestServer } from '@rxagent/testing';
import { lastValueFrom, toArray } from 'rxjs';
import {
  RESPONSES_START,
  chatText,
  chatToolCalls,
  responsesCompleted,
  responsesMessage,
  scriptedServer,
  testModel,
} from './test-support/openai-fixtures.test.js';

const weather = z.object({ city: z.string(), tempC: z.number(), note: z.string().optional() });
const lookup = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: 21 }),
});

let server: SseTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Body = Record<string, unknown> & { messages?: { role: string; content: unknown }[]; input?: unknown[] };
const body = (i: number) => server?.requests[i]?.body as Body;
const outputs = (events: AgentEvent[]) =>
  events.filter((e) => e.type === 'output-update').map((e) => e.output);

const strictWeather = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    tempC: { type: 'number' },
    note: { type: ['string', 'null'] },
  },
  required: ['city', 'tempC', 'note'],
  additionalProperties: false,
};

const wire = {
  chat: {
    text: (pieces: string[]): SseScript => ({ events: chatText(pieces) }),
    format: (b: Body) => b.response_format,
    expectedFormat: {
      type: 'json_schema',
      json_schema: { name: 'final_answer', schema: strictWeather, strict: true },
    },
    lastUserText: (b: Body) => JSON.stringify(b.messages?.at(-1)),
  },
  responses: {
    text: (pieces: string[]): SseScript => ({
      events: [...RESPONSES_START, ...responsesMessage(0, pieces), responsesCompleted()],
    }),
    format: (b: Body) => (b.text as { format?: unknown } | undefined)?.format,
    expectedFormat: { type: 'json_schema', name: 'final_answer', schema: strictWeather, strict: true },
    lastUserText: (b: Body) => JSON.stringify(b.input?.at(-1)),
  },
} as const;

describe.each(['chat', 'responses'] as const)(
  'structured output over the OpenAI %s API, native mode',
  (api) => {
    const w = wire[api];

    it('asks for the strict json_schema, sends an invalid answer back and delivers the corrected one typed', async () => {
      server = await scriptedServer(
        w.text(['{"city":"Paris",', '"tempC":"warm","note":null}']),
        w.text(['{"city":"Paris",', '"tempC":21,"note":null}']),
      );
      const run$ = runAgent({
        model: testModel(server, { api }),
        prompt: 'Weather in Paris?',
        output: weather,
        outputMode: 'native',
      });
      const events = await collectEvents(run$);
      const end = events.at(-1);
      expect(end).toMatchObject({ type: 'agent-end', reason: 'completed', steps: 2 });
      // The null OpenAI sends for the optional note is taken out again.
      expect(end?.type === 'agent-end' && end.output).toEqual({ city: 'Paris', tempC: 21 });
      expect(w.format(body(0))).toEqual(w.expectedFormat);
      expect(w.lastUserText(body(1))).toContain('tempC: Invalid input: expected number, received string');
      expect(outputs(events).at(-1)).toEqual({ city: 'Paris', tempC: 21, note: null });
    });
  },
);

describe('structured output over the OpenAI chat API', () => {
  it('runs tools and the native answer in the same run', async () => {
    server = await scriptedServer(
      { events: chatToolCalls([{ id: 'call_1', name: 'get_weather', pieces: ['{"city":"Paris"}'] }]) },
      { events: chatText(['{"city":"Paris","tempC":21,"note":"sunny"}']) },
    );
    const events = await collectEvents(
      runAgent({
        model: testModel(server),
        prompt: 'Weather?',
        tools: [lookup],
        output: weather,
        outputMode: 'native',
      }),
    );
    expect(events.at(-1)).toMatchObject({ steps: 2, output: { city: 'Paris', tempC: 21, note: 'sunny' } });
    expect(body(0).tools).toHaveLength(1);
    expect(body(0).response_format).toMatchObject({ type: 'json_schema' });
  });

  it('falls back to a final_answer tool: invalid arguments come back as an error result, the corrected call ends the run', async () => {
    server = await scriptedServer(
      { events: chatToolCalls([{ id: 'call_1', name: 'final_answer', pieces: ['{"city":', '"Paris"}'] }]) },
      {
        events: chatToolCalls([
          { id: 'call_2', name: 'final_answer', pieces: ['{"city":"Paris",', '"tempC":21}'] },
        ]),
      },
    );
    const events = await collectEvents(
      runAgent({
        model: testModel(server),
        prompt: 'Weather?',
        tools: [lookup],
        output: weather,
        outputMode: 'tool',
      }),
    );
    expect(events.at(-1)).toMatchObject({
      reason: 'completed',
      steps: 2,
      output: { city: 'Paris', tempC: 21 },
    });
    expect(body(0).response_format).toBeUndefined();
    expect((body(0).tools as { function: { name: string } }[]).map((t) => t.function.name)).toEqual([
      'get_weather',
      'final_answer',
    ]);
    const toolMessage = body(1).messages?.find((m) => m.role === 'tool');
    expect(JSON.stringify(toolMessage)).toContain('tempC');
    expect(outputs(events)).toEqual([{}, { city: 'Paris' }, { city: 'Paris', tempC: 21 }]);
  });

  it('fails with StructuredOutputError once the retries are spent', async () => {
    server = await scriptedServer({ events: chatText(['{"city":42}']) });
    const run$ = runAgent({
      model: testModel(server),
      prompt: 'Weather?',
      output: weather,
      outputMode: 'native',
      maxOutputRetries: 1,
    });
    const error: unknown = await lastValueFrom(run$.pipe(toArray())).catch((e: unknown) => e);
    expect(StructuredOutputError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ text: '{"city":42}', attempts: 2 });
    expect(server.requests).toHaveLength(2);
  });
});
