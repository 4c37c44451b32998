import { z } from 'zod';
import { lastValueFrom, toArray } from 'rxjs';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { AgentConfigError } from '../errors/agent-errors.js';
import { StructuredOutputError } from '../output/structured-output-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import { contentText } from '../messages/message-helpers.js';
import type { UserMessage } from '../messages/types.js';
import { withState } from '../state/with-state.js';
import { jsonSchema, tool } from '../tools/tool.js';
import type { AgentEndEventOf } from '../output/typed-events.js';

const weather = z.object({ city: z.string(), tempC: z.number(), note: z.string().optional() });
const lookup = tool({
  name: 'lookup',
  description: 'Weather lookup',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: 21 }),
});
const outputs = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'output-update' ? [e.output] : []));
const lastUser = (messages: readonly { role: string }[]) =>
  contentText([...messages].reverse().find((m) => m.role === 'user') as UserMessage);

async function failure(run$: ReturnType<typeof runAgent>): Promise<unknown> {
  try {
    await lastValueFrom(run$.pipe(toArray()));
  } catch (error) {
    return error;
  }
  throw new Error('the run did not fail');
}

describe('structured output, native mode', () => {
  it('delivers the validated answer typed on agent-end, after the tools of the run', async () => {
    const model = scriptedModel([
      toolCallTurn({ name: 'lookup', args: { city: 'Paris' } }),
      textTurn('{"city":"Paris","tempC":21}', { chunks: 5 }),
    ]);
    const run$ = runAgent({
      model,
      prompt: 'Weather?',
      tools: [lookup],
      output: weather,
      outputMode: 'native',
    });
    const events = await collectEvents(run$);
    const end = events.at(-1) as AgentEndEventOf<z.infer<typeof weather>>;
    expect(end).toMatchObject({ type: 'agent-end', reason: 'completed', steps: 2 });
    expect(end.output).toEqual({ city: 'Paris', tempC: 21 });
    const format = model.requests[0]?.responseFormat;
    expect(format).toMatchObject({ type: 'json-schema', name: 'final_answer' });
    expect(model.requests[0]?.tools?.map((t) => t.name)).toEqual(['lookup']);
  });

  it('streams the partial object as output-update events and folds it into state', async () => {
    const text = '{"city":"Paris","tempC":21}';
    const streaming = scriptedModel([
      textTurn(text, { chunks: ['{"ci', 'ty":"Pa', 'ris","te', 'mpC":2', '1}'] }),
    ]);
    const { events$, state$ } = withState(
      runAgent({ model: streaming, prompt: 'Weather?', output: weather, outputMode: 'native' }),
    );
    const events = await collectEvents(events$);
    expect(outputs(events)).toEqual([
      {},
      { city: 'Pa' },
      { city: 'Paris' },
      { city: 'Paris', tempC: 2 },
      { city: 'Paris', tempC: 21 },
    ]);
    expect(state$.value.output).toEqual({ city: 'Paris', tempC: 21 });
  });

  it('sends an invalid answer back with its issues, then takes the corrected one', async () => {
    const model = scriptedModel([
      textTurn('{"city":"Paris","tempC":"warm"}'),
      textTurn('{"city":"Paris","tempC":21}'),
    ]);
    const events = await collectEvents(
      runAgent({ model, prompt: 'Weather?', output: weather, outputMode: 'native' }),
    );
    expect(events.at(-1)).toMatchObject({
      type: 'agent-end',
      reason: 'completed',
      steps: 2,
      output: { city: 'Paris', tempC: 21 },
    });
    const feedback = lastUser(model.requests[1]?.messages ?? []);
    expect(feedback).toContain('Your answer does not match the required JSON schema');
    expect(feedback).toContain('tempC: Invalid input: expected number, received string');
  });

  it('fails with StructuredOutputError carrying the last text and the issues once the retries are spent', async () => {
    const bad = () => textTurn('not json at all');
    const model = scriptedModel([bad(), bad(), bad(), bad()]);
    const error = await failure(
      runAgent({ model, prompt: 'Weather?', output: weather, outputMode: 'native' }),
    );
    expect(StructuredOutputError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ text: 'not json at all', attempts: 3 });
    expect((error as StructuredOutputError).issues[0]?.message).toMatch(/^not valid JSON/);
    expect(model.requests).toHaveLength(3);
  });

  it('honours maxOutputRetries', async () => {
    const model = scriptedModel([textTurn('{}'), textTurn('{}')]);
    const error = await failure(
      runAgent({ model, prompt: 'Weather?', output: weather, outputMode: 'native', maxOutputRetries: 0 }),
    );
    expect(error).toMatchObject({
      attempts: 1,
      issues: expect.arrayContaining([expect.objectContaining({ path: 'city' })]),
    });
    expect(model.requests).toHaveLength(1);
  });

  it('accepts a raw JSON Schema (ajv) and a non-object schema (wrapped as { answer })', async () => {
    const raw = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] };
    const first = await collectEvents(
      runAgent({
        model: scriptedModel([textTurn('{"n":1.5}'), textTurn('{"n":2}')]),
        prompt: 'n?',
        output: raw,
        outputMode: 'native',
      }),
    );
    expect(first.at(-1)).toMatchObject({ output: { n: 2 }, steps: 2 });
    const list = scriptedModel([textTurn('{"answer":["a","b"]}')]);
    const second = await collectEvents(
      runAgent({
        model: list,
        prompt: 'list',
        output: jsonSchema<string[]>({ type: 'array', items: { type: 'string' } }),
        outputMode: 'native',
      }),
    );
    expect(second.at(-1)).toMatchObject({ output: ['a', 'b'] });
    expect(list.requests[0]?.responseFormat).toMatchObject({
      schema: { type: 'object', properties: { answer: { type: 'array' } }, required: ['answer'] },
    });
  });
});

describe('structured output, tool mode', () => {
  it('adds a final_answer tool, runs other tools in the same run and ends with the typed answer', async () => {
    const model = scriptedModel([
      toolCallTurn({ name: 'lookup', args: { city: 'Paris' } }),
      toolCallTurn({ name: 'final_answer', args: { city: 'Paris', tempC: 21 } }),
      textTurn('never asked'),
    ]);
    const events = await collectEvents(
      runAgent({ model, prompt: 'Weather?', tools: [lookup], output: weather, outputMode: 'tool' }),
    );
    expect(events.at(-1)).toMatchObject({
      type: 'agent-end',
      reason: 'completed',
      steps: 2,
      output: { city: 'Paris', tempC: 21 },
      signal: { source: 'structuredOutput' },
    });
    expect(model.requests[0]?.tools?.map((t) => t.name)).toEqual(['lookup', 'final_answer']);
    expect(model.requests[0]?.responseFormat).toBeUndefined();
    expect(outputs(events)).toEqual([{ city: 'Paris', tempC: 21 }]);
  });

  it('returns invalid arguments to the model as an error result, then takes the corrected call', async () => {
    const model = scriptedModel([
      toolCallTurn({ name: 'final_answer', args: { city: 'Paris' } }),
      toolCallTurn({ name: 'final_answer', args: { city: 'Paris', tempC: 21 } }),
    ]);
    const events = await collectEvents(
      runAgent({ model, prompt: 'Weather?', output: weather, outputMode: 'tool' }),
    );
    expect(events.at(-1)).toMatchObject({
      reason: 'completed',
      steps: 2,
      output: { city: 'Paris', tempC: 21 },
    });
    const toolEnd = events.find((e) => e.type === 'tool-end');
    expect(toolEnd).toMatchObject({ toolName: 'final_answer', isError: true });
  });

  it('asks for the tool when the model answers with text', async () => {
    const model = scriptedModel([
      textTurn('It is 21 degrees.'),
      toolCallTurn({ name: 'final_answer', args: { city: 'Paris', tempC: 21 } }),
    ]);
    const events = await collectEvents(
      runAgent({ model, prompt: 'Weather?', output: weather, outputMode: 'tool' }),
    );
    expect(events.at(-1)).toMatchObject({ output: { city: 'Paris', tempC: 21 } });
    expect(lastUser(model.requests[1]?.messages ?? [])).toContain('calling the "final_answer" tool');
  });

  it('fails with StructuredOutputError after the retries', async () => {
    const bad = () => toolCallTurn({ name: 'final_answer', args: { city: 3 } });
    const model = scriptedModel([bad(), bad(), bad(), bad()]);
    const error = await failure(runAgent({ model, prompt: 'Weather?', output: weather, outputMode: 'tool' }));
    expect(error).toMatchObject({ name: 'StructuredOutputError', attempts: 3, text: '{"city":3}' });
    expect((error as StructuredOutputError).issues.map((i) => i.path)).toEqual(['city', 'tempC']);
  });

  it('is the default for providers without a native mode', async () => {
    const model = scriptedModel([toolCallTurn({ name: 'final_answer', args: { city: 'Oslo', tempC: -3 } })]);
    const events = await collectEvents(runAgent({ model, prompt: 'Weather?', output: weather }));
    expect(events.at(-1)).toMatchObject({ output: { city: 'Oslo', tempC: -3 } });
  });
});

describe('structured output config', () => {
  it('refuses output with responseFormat, a tool already named final_answer and a bad retry count', async () => {
    const model = scriptedModel([textTurn('{}')]);
    const finalTool = tool({
      name: 'final_answer',
      description: 'x',
      parameters: z.object({}),
      execute: () => 'x',
    });
    await expect(
      failure(runAgent({ model, prompt: 'x', output: weather, responseFormat: { type: 'json' } })),
    ).resolves.toBeInstanceOf(AgentConfigError);
    await expect(
      failure(runAgent({ model, prompt: 'x', output: weather, tools: [finalTool] })),
    ).resolves.toMatchObject({
      message: expect.stringContaining('final_answer'),
    });
    await expect(
      failure(runAgent({ model, prompt: 'x', output: weather, maxOutputRetries: -1 })),
    ).resolves.toMatchObject({
      message: expect.stringContaining('maxOutputRetries'),
    });
  });
});
