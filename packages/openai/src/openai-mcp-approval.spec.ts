import { join } from 'node:path';
import { Agent, runAgent, type AgentEvent, type AssistantMessage } from '@rxagent/core';
import { collectEvents, recordedStream, type SseTestServer } from '@rxagent/testing';
import { openaiMcpServer } from './openai-mcp-server.js';
import { scriptedServer, testModel } from './test-support/openai-fixtures.test.js';

// OpenAI's remote MCP approvals answered through rxagent's approvals: recorded streams of a
// `require_approval: 'always'` server (the request, then OpenAI's answer after the approval
// or the rejection), replayed through the official SDK.

let server: SseTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const recorded = (file: string) => recordedStream(join(__dirname, '__fixtures__', file));
const inputOf = (s: SseTestServer, i: number) =>
  (s.requests[i]!.body as { input: Record<string, unknown>[] }).input;
const REQUEST_ID = 'mcpr_04a97b4fce127879006949a8672ac081959f95aa8ceedb7cd9';
const zip1 = () =>
  openaiMcpServer({
    serverLabel: 'zip1',
    serverUrl: 'https://zip1.io/mcp',
    serverDescription: 'Link shortener',
  });

function assistants(events: AgentEvent[]): AssistantMessage[] {
  return events.flatMap((e) =>
    e.type === 'message-end' && e.message.role === 'assistant' ? [e.message] : [],
  );
}

describe('OpenAI MCP approvals', () => {
  it('declares the server as the mcp tool, with approval always asked', async () => {
    server = await scriptedServer({ events: recorded('openai-mcp-tool-approval.3.chunks.txt') });
    await collectEvents(
      runAgent({
        model: testModel(server, { api: 'responses' }),
        tools: [zip1()],
        prompt: 'Shorten',
        approver: () => false,
      }),
    );
    expect((server.requests[0]!.body as { tools: unknown[] }).tools).toEqual([
      {
        type: 'mcp',
        server_label: 'zip1',
        server_url: 'https://zip1.io/mcp',
        server_description: 'Link shortener',
        require_approval: 'always',
      },
    ]);
  });

  it('asks the person; approved, the next request answers with mcp_approval_response approve: true', async () => {
    server = await scriptedServer(
      { events: recorded('openai-mcp-tool-approval.3.chunks.txt') },
      { events: recorded('openai-mcp-tool-approval.4.chunks.txt') },
    );
    const agent = new Agent({ model: testModel(server, { api: 'responses' }), tools: [zip1()] });
    const asked: unknown[] = [];
    agent.subscribe((event) => {
      if (event.type !== 'approval-request') return;
      asked.push(event.args);
      // Decided after the event is delivered, as a person would.
      setTimeout(() => agent.approve(event.toolCallId));
    });
    await agent.prompt('Shorten https://ai-sdk.dev/ with max 100 clicks');

    expect(asked).toEqual([
      {
        server_label: 'zip1',
        name: 'create_short_url',
        arguments: {
          alias: '',
          description: 'Shortened link for ai-sdk.dev',
          max_clicks: 100,
          password: '',
          url: 'https://ai-sdk.dev/',
        },
      },
    ]);
    const [first, second] = agent.state$.value.messages.filter(
      (m): m is AssistantMessage => m.role === 'assistant',
    );
    expect(first!.stopReason).toBe('tool-calls');
    const answer = inputOf(server, 1).slice(-2);
    expect(answer).toEqual([
      {
        type: 'mcp_approval_request',
        id: REQUEST_ID,
        server_label: 'zip1',
        name: 'create_short_url',
        arguments:
          '{"alias":"","description":"Shortened link for ai-sdk.dev","max_clicks":100,"password":"","url":"https://ai-sdk.dev/"}',
      },
      { type: 'mcp_approval_response', approval_request_id: REQUEST_ID, approve: true },
    ]);
    // OpenAI then ran the MCP call itself: a provider part, and the answer.
    expect(second!.stopReason).toBe('stop');
    expect(second!.content.find((p) => p.type === 'provider' && p.kind === 'mcp_call')).toMatchObject({
      data: { approval_request_id: REQUEST_ID, name: 'create_short_url' },
    });
  });

  it('rejected, the run stops and the next request refuses it with the reason', async () => {
    server = await scriptedServer(
      { events: recorded('openai-mcp-tool-approval.1.chunks.txt') },
      { events: recorded('openai-mcp-tool-approval.2.chunks.txt') },
    );
    const model = testModel(server, { api: 'responses' });
    const first = await collectEvents(
      runAgent({
        model,
        tools: [zip1()],
        prompt: 'Shorten https://ai-sdk.dev/',
        approver: () => ({ approved: false, reason: 'Not this link.' }),
      }),
    );
    const end = first.at(-1) as Extract<AgentEvent, { type: 'agent-end' }>;
    expect(end.reason).toBe('rejected');
    expect(server.requests).toHaveLength(1);

    const transcript = end.messages;
    const second = await collectEvents(
      runAgent({ model, tools: [zip1()], messages: transcript, prompt: 'Why not?' }),
    );
    const refusal = inputOf(server, 1).find((item) => item.type === 'mcp_approval_response');
    expect(refusal).toMatchObject({ approval_request_id: expect.stringMatching(/^mcpr_/), approve: false });
    expect(String(refusal!.reason)).toContain('Not this link.');
    expect(assistants(second)[0]!.stopReason).toBe('stop');
  });

  it('fails closed: a request for a server no tool declares is refused, never approved', async () => {
    server = await scriptedServer(
      { events: recorded('openai-mcp-tool-approval.1.chunks.txt') },
      { events: recorded('openai-mcp-tool-approval.2.chunks.txt') },
    );
    const events = await collectEvents(
      runAgent({ model: testModel(server, { api: 'responses' }), prompt: 'Shorten', approver: () => true }),
    );
    expect(events.find((e) => e.type === 'tool-end')).toMatchObject({ toolName: 'zip1', isError: true });
    const refusal = inputOf(server, 1).find((item) => item.type === 'mcp_approval_response');
    expect(refusal).toMatchObject({ approve: false });
  });
});
