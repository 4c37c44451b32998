import { asyncScheduler, lastValueFrom, tap, toArray } from 'rxjs';
import { z } from 'zod';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { AgentConfigError } from '../errors/agent-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import { contentText } from '../messages/message-helpers.js';
import type { AgentMessage } from '../messages/types.js';
import { tool, type AnyTool } from './tool.js';
import { activatedTools, TOOL_SEARCH_NAME, withToolSearch } from './tool-search.js';

const weatherCalls: string[] = [];
const weather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  deferred: true,
  execute: ({ city }) => {
    weatherCalls.push(city);
    return `Sunny in ${city}`;
  },
});
const ticket = tool({
  name: 'create_ticket',
  description: 'Open a support ticket for a customer',
  parameters: z.object({ title: z.string() }),
  deferred: true,
  execute: ({ title }) => `Ticket "${title}" opened`,
});
const read = tool({
  name: 'read',
  description: 'Read a file',
  parameters: z.object({ path: z.string() }),
  execute: () => '',
});
const tools = withToolSearch([read, weather, ticket]);

const toolNames = (request: { tools?: { name: string }[] } | undefined) => request?.tools?.map((t) => t.name);
const run = (model: ReturnType<typeof scriptedModel>, messages: AgentMessage[] = []) =>
  lastValueFrom(runAgent({ model, tools, prompt: 'Weather in Oslo?', messages }).pipe(toArray()));
const endMessages = (events: AgentEvent[]) => {
  const end = events.find((e) => e.type === 'agent-end');
  return end?.type === 'agent-end' ? end.messages : [];
};

describe('deferred tools and tool_search', () => {
  it('sends a deferred schema only after tool_search activated it, then the tool runs', async () => {
    const model = scriptedModel([
      toolCallTurn({ name: TOOL_SEARCH_NAME, args: { names: ['get_weather'] } }),
      toolCallTurn({ name: 'get_weather', args: { city: 'Oslo' } }),
      textTurn('Sunny.'),
    ]);
    const events = await run(model);
    expect(toolNames(model.requests[0])).toEqual(['read', TOOL_SEARCH_NAME]);
    expect(toolNames(model.requests[1])).toEqual(['read', 'get_weather', TOOL_SEARCH_NAME]);
    expect(weatherCalls).toContain('Oslo');
    const result = endMessages(events).find((m) => m.role === 'tool' && m.toolName === TOOL_SEARCH_NAME);
    expect(result?.role === 'tool' && contentText(result)).toMatch(
      /^Activated: \["get_weather"\]\nYou can call/,
    );
    // The description tells the model what exists without the schemas.
    expect(model.requests[0]?.tools?.[1]?.description).toContain('get_weather, create_ticket');
  });

  it('re-activates the tools of a restored transcript from its first request', async () => {
    const first = scriptedModel([
      toolCallTurn({ name: TOOL_SEARCH_NAME, args: { names: ['create_ticket'] } }),
      textTurn('Ready.'),
    ]);
    const transcript = endMessages(await run(first));
    const restored = JSON.parse(JSON.stringify(transcript)) as AgentMessage[];
    expect([...activatedTools(restored)]).toEqual(['create_ticket']);
    const second = scriptedModel([textTurn('Still here.')]);
    await run(second, restored);
    expect(toolNames(second.requests[0])).toEqual(['read', 'create_ticket', TOOL_SEARCH_NAME]);
  });

  it('activates the best matches of a query and lists unknown names', async () => {
    const [, , , search] = tools as [AnyTool, AnyTool, AnyTool, AnyTool];
    const ctx = {
      runId: 'r',
      toolName: TOOL_SEARCH_NAME,
      scheduler: asyncScheduler,
      toolCallId: 'c',
      signal: new AbortController().signal,
      progress: () => undefined,
      messages: [],
    };
    expect(await search.execute({ query: 'support ticket', names: ['nope'] }, ctx)).toBe(
      'Activated: ["create_ticket"]\nYou can call these tools now:\n- create_ticket: Open a support ticket for a customer\n' +
        'Unknown tool names: nope. Deferred tools: get_weather, create_ticket.',
    );
    expect(await search.execute({}, ctx)).toMatch(
      /^Activated: \[\]\nNothing activated\. Deferred tools:\n- get_weather/,
    );
  });

  it('ignores failed or rewritten tool_search results', () => {
    const result = (text: string, isError = false): AgentMessage => ({
      role: 'tool',
      toolCallId: 'c',
      toolName: TOOL_SEARCH_NAME,
      content: [{ type: 'text', text }],
      isError,
      timestamp: 0,
    });
    expect([
      ...activatedTools([result('Activated: ["a"]', true), result('Activated: nonsense'), result('hello')]),
    ]).toEqual([]);
  });

  it('refuses deferred tools without tool_search at start, before any event or model call', async () => {
    const model = scriptedModel([textTurn('Hi')]);
    const events: AgentEvent[] = [];
    const error = await lastValueFrom(
      runAgent({ model, tools: [weather], prompt: 'Hi' }).pipe(tap((e) => events.push(e))),
    ).catch((e: unknown) => e);
    expect(AgentConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/"get_weather" are deferred.*withToolSearch\(tools\)/);
    expect([events, model.requests]).toEqual([[], []]);
  });

  it('refuses a deferred flag that is not a boolean when the tool is made', () => {
    expect(() =>
      tool({
        name: 'later',
        description: 'd',
        parameters: z.object({}),
        deferred: 'yes' as never,
        execute: () => '',
      }),
    ).toThrow(
      'Tool "later": deferred must be true or false (true keeps its schema out of requests until tool_search activates it); received "yes".',
    );
  });

  it('fails loudly when deferred tools have no tool_search to activate them', async () => {
    const model = scriptedModel([textTurn('Hi')]);
    await expect(lastValueFrom(runAgent({ model, tools: [weather], prompt: 'Hi' }))).rejects.toThrow(
      /"get_weather" are deferred but the run has no "tool_search" tool.*withToolSearch/,
    );
    expect(() => withToolSearch(tools)).toThrow(AgentConfigError);
  });
});
