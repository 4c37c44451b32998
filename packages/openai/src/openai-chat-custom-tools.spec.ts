import { z } from 'zod';
import { runAgent, tool, type AgentEvent, type AssistantMessage } from '@rxagent/core';
import { collectEvents, type SseTestServer } from '@rxagent/testing';
import { lastValueFrom, toArray } from 'rxjs';
import {
  CHAT_DONE,
  chatChunk,
  chatText,
  chatUsageChunk,
  scriptedServer,
  testModel,
} from './test-support/openai-fixtures.test.js';

// Chat Completions' own custom (free-form) tools, through the official SDK: declared with
// their grammar, streamed as `type: 'custom'` fragments (the shape reported from the live API
// in openai/openai-openapi#576), run with the raw text, and sent back in the same shape.

let server: SseTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const GRAMMAR = { type: 'grammar', grammar: { syntax: 'regex', definition: 'SELECT .+' } };

function writeSql(seen: string[]) {
  return tool({
    name: 'write_sql',
    description: 'Write a SQL query',
    parameters: z.string(),
    providerTools: { openai: { type: 'custom', format: GRAMMAR } },
    execute: (sql) => {
      seen.push(sql);
      return 'alice, bob';
    },
  });
}

const customCall = (piece: string, start = false) =>
  chatChunk({
    tool_calls: [
      start
        ? { index: 0, id: 'call_sql', type: 'custom', custom: { name: 'write_sql', input: piece } }
        : { index: 0, custom: { input: piece } },
    ],
  });

function assistants(events: AgentEvent[]): AssistantMessage[] {
  return events.flatMap((e) =>
    e.type === 'message-end' && e.message.role === 'assistant' ? [e.message] : [],
  );
}

describe('Chat Completions custom tools', () => {
  it('declares the custom tool with its format, runs its call with the raw text, sends both back as custom', async () => {
    server = await scriptedServer(
      {
        events: [
          chatChunk({ role: 'assistant', content: null }),
          customCall('SELECT * ', true),
          customCall('FROM users'),
          customCall(' WHERE age > 25'),
          chatChunk({}, 'tool_calls'),
          chatUsageChunk(),
          CHAT_DONE,
        ],
      },
      { events: chatText(['alice and bob.']) },
    );
    const seen: string[] = [];
    const events = await collectEvents(
      runAgent({ model: testModel(server), prompt: 'Users over 25?', tools: [writeSql(seen)] }),
    );
    expect(seen).toEqual(['SELECT * FROM users WHERE age > 25']);
    expect(assistants(events)[0]).toMatchObject({
      stopReason: 'tool-calls',
      content: [
        {
          type: 'tool-call',
          id: 'call_sql',
          name: 'write_sql',
          args: 'SELECT * FROM users WHERE age > 25',
          providerKind: 'custom_tool_call',
        },
      ],
    });
    const [first, second] = server.requests.map((r) => r.body as Record<string, unknown>);
    expect(first!.tools).toEqual([
      { type: 'custom', custom: { name: 'write_sql', description: 'Write a SQL query', format: GRAMMAR } },
    ]);
    expect((second!.messages as unknown[]).slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_sql',
            type: 'custom',
            custom: { name: 'write_sql', input: 'SELECT * FROM users WHERE age > 25' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_sql', content: 'alice, bob' },
    ]);
  });

  it('forces a custom tool with the custom tool choice', async () => {
    server = await scriptedServer({ events: chatText(['ok']) });
    await collectEvents(
      runAgent({
        model: testModel(server),
        prompt: 'q',
        tools: [writeSql([])],
        toolChoice: { type: 'tool', name: 'write_sql' },
      }),
    );
    expect((server.requests[0]!.body as { tool_choice: unknown }).tool_choice).toEqual({
      type: 'custom',
      custom: { name: 'write_sql' },
    });
  });

  it('reads a function fragment with an empty `custom: {}` echo as a function call', async () => {
    server = await scriptedServer({
      events: [
        chatChunk({ role: 'assistant', content: null }),
        chatChunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_f',
              type: 'function',
              function: { name: 'now', arguments: '{}' },
              custom: {},
            },
          ],
        }),
        chatChunk({}, 'tool_calls'),
        CHAT_DONE,
      ],
    });
    const events = await lastValueFrom(
      testModel(server)
        .stream({ messages: [{ role: 'user', content: 'Time?', timestamp: 0 }] })
        .pipe(toArray()),
    );
    const end = events.find((e) => e.type === 'toolcall-end');
    expect(end?.type === 'toolcall-end' && end.call).toEqual({
      type: 'tool-call',
      id: 'call_f',
      name: 'now',
      args: {},
    });
  });
});
