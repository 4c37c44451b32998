import { z } from 'zod';
import { AuthError, assistantText, runAgent, tool, type AgentEvent } from '@rxagent/core';
import { collectEvents, type SseScript, type SseTestServer } from '@rxagent/testing';
import {
  RESPONSES_START,
  chatText,
  chatToolCalls,
  responsesCall,
  responsesCompleted,
  responsesMessage,
  scriptedServer,
  streamError,
  testModel,
} from './test-support/openai-fixtures.test.js';

const weather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: 21 }),
});

const apis = {
  chat: {
    toolTurn: (): SseScript => ({
      chunkSize: 11,
      events: chatToolCalls([{ id: 'call_1', name: 'get_weather', pieces: ['{"ci', 'ty":"Par', 'is"}'] }]),
    }),
    textTurn: (text: string): SseScript => ({ events: chatText([text]) }),
    toolResultOf: (body: unknown) =>
      (body as { messages: { role: string }[] }).messages.find((m) => m.role === 'tool'),
    expectedToolResult: { role: 'tool', tool_call_id: 'call_1', content: '{"city":"Paris","tempC":21}' },
  },
  responses: {
    toolTurn: (): SseScript => ({
      chunkSize: 11,
      events: [
        ...RESPONSES_START,
        ...responsesCall(0, { id: 'call_1', name: 'get_weather', pieces: ['{"ci', 'ty":"Par', 'is"}'] }),
        responsesCompleted(),
      ],
    }),
    textTurn: (text: string): SseScript => ({
      events: [...RESPONSES_START, ...responsesMessage(0, [text]), responsesCompleted()],
    }),
    toolResultOf: (body: unknown) =>
      (body as { input: { type?: string }[] }).input.find((m) => m.type === 'function_call_output'),
    expectedToolResult: {
      type: 'function_call_output',
      call_id: 'call_1',
      output: '{"city":"Paris","tempC":21}',
    },
  },
} as const;

let server: SseTestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const lastAssistantText = (events: AgentEvent[]) => {
  const end = events.at(-1);
  return end?.type === 'agent-end' ? assistantText(end.messages.at(-1)) : undefined;
};

describe.each(['chat', 'responses'] as const)('runAgent over the %s API', (api) => {
  const wire = apis[api];

  it('calls the tool, runs it and sends the result back in the second request', async () => {
    server = await scriptedServer(wire.toolTurn(), wire.textTurn('It is 21 °C in Paris.'));
    const events = await collectEvents(
      runAgent({ model: testModel(server, { api }), prompt: 'Weather in Paris?', tools: [weather] }),
    );
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed', steps: 2 });
    expect(events.find((e) => e.type === 'tool-end')).toMatchObject({
      toolName: 'get_weather',
      args: { city: 'Paris' },
      isError: false,
    });
    expect(lastAssistantText(events)).toBe('It is 21 °C in Paris.');
    expect(server.requests).toHaveLength(2);
    expect(wire.toolResultOf(server.requests[1]!.body)).toEqual(wire.expectedToolResult);
  });

  it('lets the core retry a 429 after retry-after, then succeeds', async () => {
    server = await scriptedServer(
      {
        status: 429,
        headers: { 'retry-after': '0.05' },
        json: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
      },
      wire.textTurn('Hello after waiting.'),
    );
    const events = await collectEvents(
      runAgent({ model: testModel(server, { api }), prompt: 'Hi', retryBackoff: { jitter: 0 } }),
    );
    expect(events.filter((e) => e.type === 'retry')).toEqual([
      expect.objectContaining({
        attempt: 1,
        delayMs: 50,
        error: expect.objectContaining({ name: 'RateLimitError' }),
      }),
    ]);
    expect(lastAssistantText(events)).toBe('Hello after waiting.');
    expect(server.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '0']);
  });

  it('fails the run with AuthError on 401, without retrying', async () => {
    server = await scriptedServer({
      status: 401,
      json: {
        error: {
          message: 'Incorrect API key provided',
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      },
    });
    const error = await streamError(runAgent({ model: testModel(server, { api }), prompt: 'Hi' }));
    expect(AuthError.isInstance(error)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });
});
