import { join } from 'node:path';
import { z } from 'zod';
import { runAgent, tool, type AgentEvent, type AnyTool, type AssistantMessage } from '@rxagent/core';
import { collectEvents, recordedStream, startSseTestServer, type SseTestServer } from '@rxagent/testing';
import { anthropic } from './anthropic.js';
import { TEST_API_KEY, textBlock, turn } from './anthropic-stream-fixtures.test.js';

// Anthropic's server tools (web search, the MCP connector) ran at Anthropic: recorded streams
// replayed through the official SDK keep their blocks as provider parts, finish with `stop`,
// run no client tool of the same name, and go back verbatim on the next request.

let server: SseTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const recorded = (file: string) => recordedStream(join(__dirname, '__fixtures__', file));

function spyTool(name: string): { tool: AnyTool; ran: unknown[] } {
  const ran: unknown[] = [];
  const spy = tool({
    name,
    description: `${name} (client side)`,
    parameters: z.unknown(),
    execute: (args) => {
      ran.push(args);
      return 'ran locally';
    },
  });
  return { tool: spy, ran };
}

function assistants(events: AgentEvent[]): AssistantMessage[] {
  return events.flatMap((e) =>
    e.type === 'message-end' && e.message.role === 'assistant' ? [e.message] : [],
  );
}

const kinds = (message: AssistantMessage) =>
  message.content.map((p) => (p.type === 'provider' ? p.kind : p.type));

async function runRecorded(file: string, spy: AnyTool) {
  server = await startSseTestServer((_request, index) =>
    index === 0 ? { events: recorded(file) } : turn(textBlock(0, 'Anything else?')),
  );
  const model = anthropic('claude-test', { apiKey: TEST_API_KEY, baseURL: server.url });
  const events = await collectEvents(runAgent({ model, prompt: 'Go', tools: [spy] }));
  expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  expect(server.requests).toHaveLength(1);
  expect(events.some((e) => e.type === 'tool-start')).toBe(false);
  const transcript = (events.at(-1) as Extract<AgentEvent, { type: 'agent-end' }>).messages;
  await collectEvents(runAgent({ model, prompt: 'Thanks', messages: transcript, tools: [spy] }));
  const sent = (server.requests[1]!.body as { messages: { role: string; content: unknown }[] }).messages;
  return { message: assistants(events)[0]!, sentBack: sent[1]!.content as Record<string, unknown>[] };
}

describe('server-run calls: Anthropic', () => {
  it('keeps a web search and its results as provider parts, the cited answer as text (stop)', async () => {
    const spy = spyTool('web_search');
    const { message, sentBack } = await runRecorded('anthropic-web-search-tool.1.chunks.txt', spy.tool);
    expect(spy.ran).toEqual([]);
    expect(message.stopReason).toBe('stop');
    expect(kinds(message).slice(0, 2)).toEqual(['server_tool_use', 'web_search_tool_result']);
    expect(message.content[0]).toMatchObject({
      data: { name: 'web_search', input: { query: expect.any(String) } },
    });
    expect(message.content.some((p) => p.type === 'text' && p.citations?.[0]?.kind === 'url')).toBe(true);
    expect(sentBack.slice(0, 2).map((b) => b.type)).toEqual(['server_tool_use', 'web_search_tool_result']);
    expect(sentBack[0]).toEqual(message.content[0]!.type === 'provider' && message.content[0]!.data);
  });

  it('keeps an MCP connector call and its result as provider parts (stop)', async () => {
    const spy = spyTool('echo');
    const { message, sentBack } = await runRecorded('anthropic-mcp.1.chunks.txt', spy.tool);
    expect(spy.ran).toEqual([]);
    expect(message.stopReason).toBe('stop');
    expect(kinds(message)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text']);
    expect(message.content[0]).toMatchObject({ data: { name: 'echo', input: { message: 'hello world' } } });
    expect(sentBack.map((b) => b.type)).toEqual(['mcp_tool_use', 'mcp_tool_result', 'text']);
  });
});
