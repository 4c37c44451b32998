import { join } from 'node:path';
import { z } from 'zod';
import {
  runAgent,
  tool,
  type AgentEvent,
  type AnyTool,
  type AssistantMessage,
  type ChatModel,
} from '@rxagent/core';
import { collectEvents, recordedStream, type SseEvent, type SseTestServer } from '@rxagent/testing';
import {
  RESPONSES_START,
  responsesCall,
  responsesCompleted,
  responsesEvent,
  responsesMessage,
  scriptedServer,
  testModel,
} from './test-support/openai-fixtures.test.js';

// Calls the provider ran itself are provider parts, sent back verbatim, never client tool
// calls: recorded Responses streams of OpenAI's hosted shell, code interpreter and web search
// and of xAI's server-side search, replayed through the official SDK. A client tool of the
// same name is registered each time and must not run; the run ends after one model call.

let server: SseTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const responses = (s: SseTestServer): ChatModel => testModel(s, { api: 'responses' });
const recorded = (file: string) => recordedStream(join(__dirname, '__fixtures__', file));
const inputOf = (s: SseTestServer, i: number) =>
  (s.requests[i]!.body as { input: Record<string, unknown>[] }).input;

/** A client tool that records every call it gets. */
function spyTool(name: string, providerTool: Record<string, unknown>): { tool: AnyTool; ran: unknown[] } {
  const ran: unknown[] = [];
  const spy = tool({
    name,
    description: `${name} (client side)`,
    parameters: z.unknown(),
    providerTools: { openai: providerTool },
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

async function runOnce(
  file: string,
  tools: AnyTool[],
): Promise<{ events: AgentEvent[]; message: AssistantMessage }> {
  server = await scriptedServer({ events: recorded(file) });
  const events = await collectEvents(runAgent({ model: responses(server), prompt: 'Go', tools }));
  expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  expect(server.requests).toHaveLength(1);
  expect(events.some((e) => e.type === 'tool-start')).toBe(false);
  return { events, message: assistants(events)[0]! };
}

const kinds = (message: AssistantMessage) =>
  message.content.map((p) => (p.type === 'provider' ? p.kind : p.type));

describe('server-run calls: OpenAI', () => {
  it('keeps a hosted shell call and its output (same response) as provider parts, finishing with stop', async () => {
    const shell = spyTool('shell', { type: 'shell', environment: { type: 'container_auto' } });
    const { events, message } = await runOnce('openai-shell-container.1.chunks.txt', [shell.tool]);
    expect(shell.ran).toEqual([]);
    expect(message.stopReason).toBe('stop');
    expect(kinds(message)).toEqual(['shell_call', 'shell_call_output', 'text']);
    expect(message.content[0]).toMatchObject({
      type: 'provider',
      provider: 'openai',
      data: { type: 'shell_call', call_id: 'call_abc123def456ghi789jkl012' },
    });
    // The call streamed as a call first; a `part` update turned it into the provider part.
    const updates = events.flatMap((e) => (e.type === 'message-update' ? [e.delta] : []));
    expect(updates.filter((d) => d.kind === 'part' && d.index === 0)).toEqual([
      expect.objectContaining({ part: expect.objectContaining({ kind: 'shell_call' }) }),
    ]);
  });

  it('sends the hosted shell items back verbatim on the next request', async () => {
    server = await scriptedServer(
      { events: recorded('openai-shell-container.1.chunks.txt') },
      { events: [...RESPONSES_START, ...responsesMessage(0, ['Linux.']), responsesCompleted()] },
    );
    const first = await collectEvents(runAgent({ model: responses(server), prompt: 'Run uname' }));
    const transcript = (first.at(-1) as Extract<AgentEvent, { type: 'agent-end' }>).messages;
    await collectEvents(runAgent({ model: responses(server), messages: transcript, prompt: 'Which OS?' }));
    const sent = inputOf(server, 1);
    const shellItems = sent.filter((i) => i.type === 'shell_call' || i.type === 'shell_call_output');
    const recordedItems = (assistants(first)[0]!.content as { type: string; data?: unknown }[])
      .filter((p) => p.type === 'provider')
      .map((p) => p.data);
    expect(shellItems).toEqual(recordedItems);
  });

  it('keeps code interpreter calls as provider parts (no client tool, stop)', async () => {
    const python = spyTool('code_interpreter', { type: 'code_interpreter', container: { type: 'auto' } });
    const { message } = await runOnce('openai-code-interpreter-tool.1.chunks.txt', [python.tool]);
    expect(python.ran).toEqual([]);
    expect(message.stopReason).toBe('stop');
    expect(kinds(message).filter((k) => k === 'code_interpreter_call')).toHaveLength(3);
    expect(message.content.at(-1)).toMatchObject({ type: 'text' });
  });

  it('keeps web searches as provider parts with the answer cited (no client tool, stop)', async () => {
    const search = spyTool('web_search', { type: 'web_search' });
    const { message } = await runOnce('openai-web-search-tool.1.chunks.txt', [search.tool]);
    expect(search.ran).toEqual([]);
    expect(message.stopReason).toBe('stop');
    expect(kinds(message).filter((k) => k === 'web_search_call')).toHaveLength(6);
    const answer = message.content.at(-1);
    expect(answer?.type === 'text' && answer.citations?.[0]).toMatchObject({ kind: 'url' });
  });

  it('keeps a function call answered in the same response as provider parts', async () => {
    const lookup = spyTool('lookup', { type: 'function', name: 'lookup' });
    server = await scriptedServer({
      events: [
        ...RESPONSES_START,
        ...responsesCall(0, { id: 'call_srv', name: 'lookup', pieces: ['{"q":', '"rxjs"}'] }),
        ...[
          responsesEvent('response.output_item.done', {
            output_index: 1,
            item: { id: 'fco_1', type: 'function_call_output', call_id: 'call_srv', output: 'RxJS 7.8' },
          }),
        ],
        ...responsesMessage(2, ['RxJS 7.8.']),
        responsesCompleted(),
      ] as SseEvent[],
    });
    const events = await collectEvents(
      runAgent({ model: responses(server), prompt: 'Go', tools: [lookup.tool] }),
    );
    expect(lookup.ran).toEqual([]);
    const message = assistants(events)[0]!;
    expect(message.stopReason).toBe('stop');
    expect(kinds(message)).toEqual(['function_call', 'function_call_output', 'text']);
    expect(server.requests).toHaveLength(1);
  });

  it('still runs the calls the client must run (a shell call without its output)', async () => {
    const shell = spyTool('shell', { type: 'shell' });
    server = await scriptedServer(
      {
        events: [
          ...RESPONSES_START,
          responsesEvent('response.output_item.done', {
            output_index: 0,
            item: {
              id: 'sh_1',
              type: 'shell_call',
              call_id: 'call_sh',
              status: 'completed',
              action: { commands: ['ls'], timeout_ms: null, max_output_length: null },
            },
          }),
          responsesCompleted(),
        ],
      },
      { events: [...RESPONSES_START, ...responsesMessage(0, ['Done.']), responsesCompleted()] },
    );
    const events = await collectEvents(
      runAgent({ model: responses(server), prompt: 'ls', tools: [shell.tool] }),
    );
    expect(shell.ran).toEqual([{ commands: ['ls'], timeout_ms: null, max_output_length: null }]);
    expect(assistants(events)[0]!.stopReason).toBe('tool-calls');
  });
});

describe('server-run calls: xAI', () => {
  it("keeps x_search's custom_tool_call items (no output item, undeclared names) as provider parts", async () => {
    const xSearch = spyTool('x_search', { type: 'x_search' });
    const { events, message } = await runOnce('xai-x-search-tool.chunks.txt', [xSearch.tool]);
    expect(xSearch.ran).toEqual([]);
    expect(message.stopReason).toBe('stop');
    expect(kinds(message).filter((k) => k === 'custom_tool_call')).toHaveLength(2);
    expect(message.content.find((p) => p.type === 'provider' && p.kind === 'custom_tool_call')).toMatchObject(
      {
        data: { call_id: 'xs_call_24148162', name: 'x_keyword_search' },
      },
    );
    // Never announced as a tool call, not even while streaming.
    expect(events.some((e) => e.type === 'message-update' && e.delta.kind === 'toolcall')).toBe(false);
  });

  it('runs a custom tool call of a declared tool as before', async () => {
    const sql = spyTool('x_keyword_search', { type: 'custom' });
    server = await scriptedServer(
      { events: recorded('xai-x-search-tool.chunks.txt') },
      { events: [...RESPONSES_START, ...responsesMessage(0, ['Done.']), responsesCompleted()] },
    );
    await collectEvents(runAgent({ model: responses(server), prompt: 'Go', tools: [sql.tool] }));
    expect(sql.ran).toEqual(['{"query":"from:xai filter:media","limit":20,"mode":"Latest"}']);
  });
});
