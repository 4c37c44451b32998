import { lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import { runAgent, StructuredOutputError, tool, type AgentEvent } from '@rxagent/core';
import { collectEvents } from '@rxagent/testing';
import { textBlock, toolUseBlock, turn, withServer } from './anthropic-stream-fixtures.test.js';

const weather = z.object({ city: z.string(), tempC: z.number(), note: z.string().optional() });
const lookup = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: 21 }),
});
type Body = Record<string, unknown> & {
  messages: { role: string; content: unknown }[];
  tools?: { name: string }[];
};
const outputs = (events: AgentEvent[]) =>
  events.filter((e) => e.type === 'output-update').map((e) => e.output);

describe('structured output over Anthropic, native mode', () => {
  it('asks for the schema in output_config, sends an invalid answer back and delivers the corrected one', async () => {
    await withServer(
      (_request, index) =>
        index === 0
          ? turn(textBlock(0, '{"city":"Paris",', '"tempC":"warm"}'))
          : turn(textBlock(0, '{"city":"Paris",', '"tempC":21}')),
      async (model, server) => {
        const events = await collectEvents(
          runAgent({ model, prompt: 'Weather in Paris?', output: weather, outputMode: 'native' }),
        );
        expect(events.at(-1)).toMatchObject({
          type: 'agent-end',
          reason: 'completed',
          steps: 2,
          output: { city: 'Paris', tempC: 21 },
        });
        const first = server.requests[0]?.body as Body;
        expect(first.output_config).toEqual({
          format: {
            type: 'json_schema',
            schema: {
              type: 'object',
              properties: { city: { type: 'string' }, tempC: { type: 'number' }, note: { type: 'string' } },
              required: ['city', 'tempC'],
              additionalProperties: false,
            },
          },
        });
        const second = server.requests[1]?.body as Body;
        expect(JSON.stringify(second.messages.at(-1))).toContain(
          'tempC: Invalid input: expected number, received string',
        );
        expect(outputs(events).at(-1)).toEqual({ city: 'Paris', tempC: 21 });
      },
    );
  });

  it('runs a tool and gives the native answer in the same run', async () => {
    await withServer(
      (_request, index) =>
        index === 0
          ? turn(toolUseBlock(0, 'toolu_1', 'get_weather', ['{"city":"Paris"}']), 'tool_use')
          : turn(textBlock(0, '{"city":"Paris","tempC":21}')),
      async (model, server) => {
        const events = await collectEvents(
          runAgent({ model, prompt: 'Weather?', tools: [lookup], output: weather, outputMode: 'native' }),
        );
        expect(events.at(-1)).toMatchObject({ steps: 2, output: { city: 'Paris', tempC: 21 } });
        expect((server.requests[0]?.body as Body).tools?.map((t) => t.name)).toEqual(['get_weather']);
      },
    );
  });
});

describe('structured output over Anthropic, final_answer tool', () => {
  it('returns invalid arguments as an error result and ends with the corrected call', async () => {
    await withServer(
      (_request, index) =>
        index === 0
          ? turn(toolUseBlock(0, 'toolu_1', 'final_answer', ['{"city":', '"Paris","tempC":"x"}']), 'tool_use')
          : turn(toolUseBlock(0, 'toolu_2', 'final_answer', ['{"city":"Paris",', '"tempC":21}']), 'tool_use'),
      async (model, server) => {
        const events = await collectEvents(
          runAgent({ model, prompt: 'Weather?', tools: [lookup], output: weather, outputMode: 'tool' }),
        );
        expect(events.at(-1)).toMatchObject({
          reason: 'completed',
          steps: 2,
          output: { city: 'Paris', tempC: 21 },
          signal: { source: 'structuredOutput' },
        });
        const first = server.requests[0]?.body as Body;
        expect(first.output_config).toBeUndefined();
        expect(first.tools?.map((t) => t.name)).toEqual(['get_weather', 'final_answer']);
        const second = server.requests[1]?.body as Body;
        expect(second.messages.at(-1)?.content).toEqual([
          expect.objectContaining({
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            is_error: true,
            content: [
              { type: 'text', text: expect.stringContaining('tempC: Invalid input: expected number') },
            ],
          }),
        ]);
        expect(outputs(events)).toEqual([
          {},
          { city: 'Paris', tempC: 'x' },
          { city: 'Paris' },
          { city: 'Paris', tempC: 21 },
        ]);
      },
    );
  });

  it('fails with StructuredOutputError carrying the last arguments once the retries are spent', async () => {
    await withServer(
      () => turn(toolUseBlock(0, 'toolu_1', 'final_answer', ['{"city":3}']), 'tool_use'),
      async (model, server) => {
        const run$ = runAgent({ model, prompt: 'Weather?', output: weather, outputMode: 'tool' });
        const error: unknown = await lastValueFrom(run$.pipe(toArray())).catch((e: unknown) => e);
        expect(StructuredOutputError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ text: '{"city":3}', attempts: 3 });
        expect(server.requests).toHaveLength(3);
      },
    );
  });
});
