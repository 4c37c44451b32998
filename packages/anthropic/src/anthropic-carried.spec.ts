import { join } from 'node:path';
import { z } from 'zod';
import { runAgent, tool, type AgentEvent, type AssistantMessage, type ModelEvent } from '@rxagent/core';
import { collectEvents, recordedStream } from '@rxagent/testing';
import {
  collect,
  messageEnd,
  messageStart,
  sse,
  textBlock,
  turn,
  withServer,
} from './anthropic-stream-fixtures.test.js';

// What real Anthropic streams carry beyond text, thinking and tool_use, replayed through the
// official SDK against the local SSE server (streams authored after Anthropic's API reference
// where no recording is published), and what the next request sends back.

/** A recorded stream from this package's `__fixtures__`. */
const recorded = (file: string) => recordedStream(join(__dirname, '__fixtures__', file));

const ask = { messages: [{ role: 'user' as const, content: 'Go', timestamp: 0 }] };
const finishOf = (events: ModelEvent[]) => {
  const finish = events.find((e) => e.type === 'finish');
  if (finish?.type !== 'finish') throw new Error('no finish');
  return finish;
};
const assistantEnds = (events: AgentEvent[]): AssistantMessage[] =>
  events.flatMap((e) => (e.type === 'message-end' && e.message.role === 'assistant' ? [e.message] : []));
const messagesOf = (body: unknown) => (body as { messages: { role: string; content: unknown[] }[] }).messages;

const searchUse = {
  type: 'server_tool_use',
  id: 'srvtoolu_1',
  name: 'web_search',
  input: { query: 'rxjs 8' },
};
const searchResult = {
  type: 'web_search_tool_result',
  tool_use_id: 'srvtoolu_1',
  content: [
    {
      type: 'web_search_result',
      title: 'RxJS',
      url: 'https://rxjs.dev',
      encrypted_content: 'Eo8B',
      page_age: null,
    },
  ],
};
const citation = {
  type: 'web_search_result_location',
  cited_text: 'RxJS 8 is out',
  url: 'https://rxjs.dev',
  title: 'RxJS',
  encrypted_index: 'Eo9C',
};

/** A server tool round: its use (input streamed), its result, then cited text. */
function searchBlocks(): ReturnType<typeof sse>[] {
  return [
    sse('content_block_start', { index: 0, content_block: { ...searchUse, input: {} } }),
    sse('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '{"query":' } }),
    sse('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '"rxjs 8"}' } }),
    sse('content_block_stop', { index: 0 }),
    sse('content_block_start', { index: 1, content_block: searchResult }),
    sse('content_block_stop', { index: 1 }),
    sse('content_block_start', { index: 2, content_block: { type: 'text', text: '', citations: [] } }),
    sse('content_block_delta', { index: 2, delta: { type: 'citations_delta', citation } }),
    sse('content_block_delta', { index: 2, delta: { type: 'text_delta', text: 'RxJS 8 is out.' } }),
    sse('content_block_stop', { index: 2 }),
  ];
}

describe('Anthropic: what real streams carry', () => {
  it('maps a tool_use delivered inside message_start (programmatic tool calling) to a tool call', async () => {
    const programmatic = {
      events: [
        sse('message_start', {
          message: {
            id: 'msg_ptc',
            type: 'message',
            role: 'assistant',
            model: 'claude-test',
            content: [
              {
                type: 'tool_use',
                id: 'toolu_ptc',
                name: 'roll_die',
                input: { player: 'player1' },
                caller: { type: 'code_execution_20250825', tool_id: 'srvtoolu_exec' },
              },
            ],
            stop_reason: 'tool_use',
            stop_sequence: null,
            usage: { input_tokens: 12, output_tokens: 3 },
          },
        }),
        sse('message_delta', {
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: { output_tokens: 3 },
        }),
        sse('message_stop'),
      ],
    };
    const rolls: string[] = [];
    const rollDie = tool({
      name: 'roll_die',
      description: 'Roll',
      parameters: z.object({ player: z.string() }),
      execute: ({ player }) => {
        rolls.push(player);
        return '6';
      },
    });
    const events = await withServer(
      (_request, i) => (i === 0 ? programmatic : turn(textBlock(0, 'Player 1 rolled 6.'))),
      (model) => collectEvents(runAgent({ model, prompt: 'Roll', tools: [rollDie] })),
    );
    expect(rolls).toEqual(['player1']);
    const [first] = assistantEnds(events);
    expect(first).toMatchObject({
      stopReason: 'tool-calls',
      content: [{ type: 'tool-call', id: 'toolu_ptc', name: 'roll_die', args: { player: 'player1' } }],
    });
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  });

  it('streams redacted thinking as a whole part at once and sends it back verbatim', async () => {
    const redacted = { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' };
    await withServer(
      (_request, i) =>
        i === 0
          ? turn([
              sse('content_block_start', { index: 0, content_block: redacted }),
              sse('content_block_stop', { index: 0 }),
              ...textBlock(1, 'Hi.'),
            ])
          : turn(textBlock(0, 'Again.')),
      async (model, server) => {
        const events = await collect(model.stream(ask));
        expect(events[0]).toEqual({
          type: 'part',
          index: 0,
          part: { type: 'thinking', text: '', redacted: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
        });
        const message = finishOf(events).message;
        await collect(
          model.stream({
            messages: [...ask.messages, message, { role: 'user', content: 'More', timestamp: 0 }],
          }),
        );
        expect(messagesOf(server.requests[1]!.body)[1]!.content).toEqual([
          redacted,
          { type: 'text', text: 'Hi.' },
        ]);
      },
    );
  });

  it('keeps server tool blocks and citations, surfaces their text, and sends them back verbatim', async () => {
    await withServer(
      () => turn(searchBlocks()),
      async (model, server) => {
        const message = finishOf(await collect(model.stream(ask))).message;
        expect(message.content).toEqual([
          {
            type: 'provider',
            provider: 'anthropic',
            kind: 'server_tool_use',
            data: searchUse,
            text: 'web_search: rxjs 8',
          },
          {
            type: 'provider',
            provider: 'anthropic',
            kind: 'web_search_tool_result',
            data: searchResult,
            text: 'web_search_tool_result:\nRxJS https://rxjs.dev',
          },
          {
            type: 'text',
            text: 'RxJS 8 is out.',
            citations: [
              {
                kind: 'url',
                url: 'https://rxjs.dev',
                title: 'RxJS',
                citedText: 'RxJS 8 is out',
                raw: citation,
              },
            ],
          },
        ]);
        await collect(
          model.stream({
            messages: [...ask.messages, message, { role: 'user', content: 'More', timestamp: 0 }],
          }),
        );
        expect(messagesOf(server.requests[1]!.body)[1]!.content).toEqual([
          searchUse,
          searchResult,
          { type: 'text', text: 'RxJS 8 is out.', citations: [citation] },
        ]);
      },
    );
  });

  it('continues a paused turn (pause_turn) in the same message, sending what came so far', async () => {
    const [use, , , useStop, resultStart, resultStop] = searchBlocks();
    await withServer(
      (_request, i) =>
        i === 0
          ? {
              events: [
                messageStart(),
                use!,
                ...searchBlocks().slice(1, 3),
                useStop!,
                ...messageEnd('pause_turn'),
              ],
            }
          : {
              events: [
                messageStart({ input_tokens: 20, output_tokens: 1 }),
                { ...resultStart!, data: { ...(resultStart!.data as object), index: 0 } },
                { ...resultStop!, data: { ...(resultStop!.data as object), index: 0 } },
                ...textBlock(1, 'Found it.'),
                ...messageEnd('end_turn', { output_tokens: 7 }),
              ],
            },
      async (model, server) => {
        const events = await collect(model.stream(ask));
        const { message, reason } = finishOf(events);
        expect(reason).toBe('stop');
        expect(message.content.map((p) => (p.type === 'provider' ? p.kind : p.type))).toEqual([
          'server_tool_use',
          'web_search_tool_result',
          'text',
        ]);
        expect(events.filter((e) => e.type === 'part').map((e) => e.type === 'part' && e.index)).toEqual([
          0, 1,
        ]);
        expect(message.usage).toMatchObject({ inputTokens: 30, outputTokens: 12 });
        expect(server.requests).toHaveLength(2);
        expect(messagesOf(server.requests[1]!.body)).toEqual([
          { role: 'user', content: [{ type: 'text', text: 'Go' }] },
          { role: 'assistant', content: [searchUse] },
        ]);
      },
    );
  });

  it('keeps the code-execution container and context management, and reuses the container', async () => {
    const container = { id: 'container_011', expires_at: '2026-11-25T18:00:00Z' };
    const contextManagement = { applied_edits: [{ type: 'clear_tool_uses_20250919', cleared_tool_uses: 2 }] };
    await withServer(
      (_request, i) =>
        i === 0
          ? {
              events: [
                messageStart(),
                ...textBlock(0, 'Ran it.'),
                sse('message_delta', {
                  delta: { stop_reason: 'end_turn', stop_sequence: null, container },
                  usage: { output_tokens: 4 },
                  context_management: contextManagement,
                }),
                sse('message_stop'),
              ],
            }
          : turn(textBlock(0, 'Again.')),
      async (model, server) => {
        const message = finishOf(await collect(model.stream(ask))).message;
        expect(message.providerMetadata).toEqual({ container, contextManagement });
        await collect(
          model.stream({
            messages: [...ask.messages, message, { role: 'user', content: 'More', timestamp: 0 }],
          }),
        );
        expect(server.requests[1]!.body).toMatchObject({ container: 'container_011' });
      },
    );
  });

  it('maps a recorded refusal to content-filter and keeps its stop details', async () => {
    const events = await withServer(
      () => ({ events: recorded('anthropic-refusal.chunks.txt') }),
      (model) => collect(model.stream(ask)),
    );
    const { reason, message } = finishOf(events);
    expect(reason).toBe('content-filter');
    expect(message.providerMetadata).toEqual({
      stopDetails: {
        type: 'refusal',
        category: 'cyber',
        explanation:
          "This request triggered restrictions on violative cyber content and was blocked under Anthropic's Usage Policy.",
        recommended_model: 'claude-fable-5',
      },
    });
    expect(message.usage).toMatchObject({ inputTokens: 18, outputTokens: 5 });
  });

  it('declares a free-form tool as { input } and hands the tool its text', async () => {
    const seen: string[] = [];
    const note = tool({
      name: 'note',
      description: 'Write a note',
      parameters: z.string(),
      execute: (text) => {
        seen.push(text);
        return 'noted';
      },
    });
    await withServer(
      (_request, i) =>
        i === 0
          ? turn(
              [
                sse('content_block_start', {
                  index: 0,
                  content_block: { type: 'tool_use', id: 'toolu_n', name: 'note', input: {} },
                }),
                sse('content_block_delta', {
                  index: 0,
                  delta: { type: 'input_json_delta', partial_json: '{"input":"buy milk"}' },
                }),
                sse('content_block_stop', { index: 0 }),
              ],
              'tool_use',
            )
          : turn(textBlock(0, 'Done.')),
      async (model, server) => {
        await collectEvents(runAgent({ model, prompt: 'Note it', tools: [note] }));
        expect(seen).toEqual(['buy milk']);
        expect((server.requests[0]!.body as { tools: unknown[] }).tools).toEqual([
          {
            name: 'note',
            description: 'Write a note',
            input_schema: { type: 'object', properties: { input: { type: 'string' } }, required: ['input'] },
          },
        ]);
        expect(messagesOf(server.requests[1]!.body)[1]!.content).toEqual([
          { type: 'tool_use', id: 'toolu_n', name: 'note', input: { input: 'buy milk' } },
        ]);
      },
    );
  });
});
