import { join } from 'node:path';
import { z } from 'zod';
import { runAgent, tool, type AgentEvent, type AssistantMessage, type ChatModel } from '@rxagent/core';
import { collectEvents, recordedStream, type SseEvent, type SseTestServer } from '@rxagent/testing';
import {
  RESPONSES_START,
  collect,
  finishOf,
  responseObject,
  responsesCompleted,
  responsesEvent,
  responsesMessage,
  scriptedServer,
  testModel,
} from './test-support/openai-fixtures.test.js';

// What real Responses streams carry beyond text and function calls, replayed through the
// official SDK against the local SSE server, and what the next request sends back.

let server: SseTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const responses = (s: SseTestServer): ChatModel => testModel(s, { api: 'responses' });

/** A recorded stream from this package's `__fixtures__`. */
const recorded = (file: string) => recordedStream(join(__dirname, '__fixtures__', file));

/** An output item streamed as added + done (a server tool's or a native call's item). */
function item(outputIndex: number, done: Record<string, unknown>): SseEvent[] {
  return [
    responsesEvent('response.output_item.added', {
      output_index: outputIndex,
      item: { ...done, status: 'in_progress' },
    }),
    responsesEvent('response.output_item.done', { output_index: outputIndex, item: done }),
  ];
}

function messageEnds(events: AgentEvent[]): AssistantMessage[] {
  return events.flatMap((e) =>
    e.type === 'message-end' && e.message.role === 'assistant' ? [e.message] : [],
  );
}

const inputOf = (s: SseTestServer, i: number) =>
  (s.requests[i]!.body as { input: Record<string, unknown>[] }).input;

describe('OpenAI Responses: reasoning across turns without server storage', () => {
  const reasoning = {
    id: 'rs_1',
    type: 'reasoning',
    summary: [
      { type: 'summary_text', text: 'Need the weather.' },
      { type: 'summary_text', text: 'Call the tool.' },
    ],
    encrypted_content: 'gAAAAB-opaque-encrypted-reasoning',
  };
  const reasoningTurn = [
    ...RESPONSES_START,
    responsesEvent('response.output_item.added', {
      output_index: 0,
      item: { id: 'rs_1', type: 'reasoning', summary: [] },
    }),
    responsesEvent('response.reasoning_summary_text.delta', {
      item_id: 'rs_1',
      output_index: 0,
      summary_index: 0,
      delta: 'Need the weather.',
    }),
    responsesEvent('response.reasoning_summary_text.delta', {
      item_id: 'rs_1',
      output_index: 0,
      summary_index: 1,
      delta: 'Call the tool.',
    }),
    responsesEvent('response.output_item.done', { output_index: 0, item: reasoning }),
    ...item(1, {
      id: 'fc_1',
      type: 'function_call',
      call_id: 'call_1',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
      status: 'completed',
    }),
    responsesCompleted(),
  ];
  const weather = tool({
    name: 'get_weather',
    description: 'Weather',
    parameters: z.object({ city: z.string() }),
    execute: () => 'sunny',
  });

  it('asks for encrypted reasoning, keeps it on the thinking parts and sends the reasoning item back', async () => {
    server = await scriptedServer(
      { events: reasoningTurn },
      { events: [...RESPONSES_START, ...responsesMessage(0, ['Sunny.']), responsesCompleted()] },
    );
    const events = await collectEvents(
      runAgent({ model: responses(server), prompt: 'Weather in Paris?', tools: [weather], thinking: 'low' }),
    );
    const first = messageEnds(events)[0]!;
    expect(first.content.slice(0, 2)).toEqual([
      {
        type: 'thinking',
        text: 'Need the weather.',
        id: 'rs_1',
        encrypted: 'gAAAAB-opaque-encrypted-reasoning',
      },
      {
        type: 'thinking',
        text: 'Call the tool.',
        id: 'rs_1',
        encrypted: 'gAAAAB-opaque-encrypted-reasoning',
      },
    ]);
    expect(server.requests[0]!.body).toMatchObject({
      store: false,
      include: ['reasoning.encrypted_content'],
    });
    expect(inputOf(server, 1).slice(1, 4)).toEqual([
      { ...reasoning },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
    ]);
  });

  it('sends reasoning item ids back when the caller stores responses, without asking for encrypted content', async () => {
    server = await scriptedServer({
      events: [...RESPONSES_START, ...responsesMessage(0, ['ok']), responsesCompleted()],
    });
    const history: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'Plan.', id: 'rs_9' },
        { type: 'text', text: 'Done.' },
      ],
      stopReason: 'stop',
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 },
      provider: 'openai',
      model: 'gpt-test',
      timestamp: 0,
    };
    await collect(
      responses(server).stream({
        messages: [
          { role: 'user', content: 'Hi', timestamp: 0 },
          history,
          { role: 'user', content: 'More', timestamp: 0 },
        ],
        thinking: 'low',
        providerOptions: { openai: { store: true } },
      }),
    );
    const body = server.requests[0]!.body as Record<string, unknown>;
    expect(body.include).toBeUndefined();
    expect(body.store).toBe(true);
    expect(inputOf(server, 0)[1]).toEqual({
      type: 'reasoning',
      id: 'rs_9',
      summary: [{ type: 'summary_text', text: 'Plan.' }],
    });
  });

  it('does not send another provider’s thinking to OpenAI', async () => {
    server = await scriptedServer({
      events: [...RESPONSES_START, ...responsesMessage(0, ['ok']), responsesCompleted()],
    });
    const fromAnthropic: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'Plan.', signature: 'sig', id: 'x' },
        { type: 'text', text: 'Done.' },
      ],
      stopReason: 'stop',
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 },
      provider: 'anthropic',
      model: 'claude',
      timestamp: 0,
    };
    await collect(
      responses(server).stream({ messages: [{ role: 'user', content: 'Hi', timestamp: 0 }, fromAnthropic] }),
    );
    expect(inputOf(server, 0)).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Done.' },
    ]);
  });
});

describe('OpenAI Responses: client-side calls that are not function calls', () => {
  it('maps a recorded custom tool call to a call of the free-form tool and sends it back as custom items', async () => {
    server = await scriptedServer(
      { events: recorded('openai-custom-tool.1.chunks.txt') },
      { events: [...RESPONSES_START, ...responsesMessage(0, ['3 users.']), responsesCompleted()] },
    );
    const seen: string[] = [];
    const writeSql = tool({
      name: 'write_sql',
      description: 'Write a SQL SELECT query to answer the user question.',
      parameters: z.string(),
      providerTools: {
        openai: { type: 'custom', format: { type: 'grammar', syntax: 'regex', definition: 'SELECT .+' } },
      },
      execute: (sql) => {
        seen.push(sql);
        return 'alice, bob, carol';
      },
    });
    const events = await collectEvents(
      runAgent({ model: responses(server), prompt: 'Users over 25?', tools: [writeSql] }),
    );
    expect(seen).toEqual(['SELECT * FROM users WHERE age > 25']);
    expect(messageEnds(events)[0]!.content).toEqual([
      {
        type: 'tool-call',
        id: 'call_custom_sql_001',
        name: 'write_sql',
        args: 'SELECT * FROM users WHERE age > 25',
        providerKind: 'custom_tool_call',
        itemId: 'ct_abc123def456',
      },
    ]);
    expect((server.requests[0]!.body as { tools: unknown[] }).tools).toEqual([
      {
        type: 'custom',
        name: 'write_sql',
        description: 'Write a SQL SELECT query to answer the user question.',
        format: { type: 'grammar', syntax: 'regex', definition: 'SELECT .+' },
      },
    ]);
    expect(inputOf(server, 1).slice(1)).toEqual([
      {
        type: 'custom_tool_call',
        call_id: 'call_custom_sql_001',
        name: 'write_sql',
        input: 'SELECT * FROM users WHERE age > 25',
      },
      { type: 'custom_tool_call_output', call_id: 'call_custom_sql_001', output: 'alice, bob, carol' },
    ]);
  });

  it('runs shell_call and apply_patch_call with the registered tools and answers with their output items', async () => {
    server = await scriptedServer(
      {
        events: [
          ...RESPONSES_START,
          ...item(0, {
            id: 'sh_1',
            type: 'shell_call',
            call_id: 'call_sh',
            action: { commands: ['ls'], timeout_ms: null, max_output_length: null },
            status: 'completed',
            environment: null,
          }),
          ...item(1, {
            id: 'ap_1',
            type: 'apply_patch_call',
            call_id: 'call_ap',
            operation: { type: 'create_file', path: 'a.txt', diff: '+hi' },
            status: 'completed',
          }),
          responsesCompleted(),
        ],
      },
      { events: [...RESPONSES_START, ...responsesMessage(0, ['Done.']), responsesCompleted()] },
    );
    const shell = tool({
      name: 'shell',
      description: 'Run commands',
      parameters: z.object({ commands: z.array(z.string()) }).loose(),
      providerTools: { openai: { type: 'shell' } },
      execute: ({ commands }) => `ran ${commands.join(' ')}`,
    });
    const applyPatch = tool({
      name: 'apply_patch',
      description: 'Apply a patch',
      parameters: z.object({ type: z.string(), path: z.string() }).loose(),
      providerTools: { openai: { type: 'apply_patch' } },
      execute: ({ path }) => `wrote ${path}`,
    });
    const events = await collectEvents(
      runAgent({ model: responses(server), prompt: 'Go', tools: [shell, applyPatch] }),
    );
    expect(
      events.filter((e) => e.type === 'tool-end').map((e) => e.type === 'tool-end' && e.isError),
    ).toEqual([false, false]);
    expect((server.requests[0]!.body as { tools: unknown[] }).tools).toEqual([
      { type: 'shell' },
      { type: 'apply_patch' },
    ]);
    expect(inputOf(server, 1).slice(1)).toEqual([
      {
        type: 'shell_call',
        call_id: 'call_sh',
        action: { commands: ['ls'], timeout_ms: null, max_output_length: null },
        status: 'completed',
      },
      {
        type: 'apply_patch_call',
        call_id: 'call_ap',
        operation: { type: 'create_file', path: 'a.txt', diff: '+hi' },
        status: 'completed',
      },
      {
        type: 'shell_call_output',
        call_id: 'call_sh',
        output: [{ stdout: 'ran ls', stderr: '', outcome: { type: 'exit', exit_code: 0 } }],
      },
      { type: 'apply_patch_call_output', call_id: 'call_ap', status: 'completed', output: 'wrote a.txt' },
    ]);
  });

  it('never drops a native call silently: with no such tool, the model reads an error result and the loop goes on', async () => {
    server = await scriptedServer(
      {
        events: [
          ...RESPONSES_START,
          ...item(0, {
            id: 'lsh_1',
            type: 'local_shell_call',
            call_id: 'call_lsh',
            action: { type: 'exec', command: ['ls'], env: {} },
            status: 'completed',
          }),
          responsesCompleted(),
        ],
      },
      { events: [...RESPONSES_START, ...responsesMessage(0, ['Cannot.']), responsesCompleted()] },
    );
    const events = await collectEvents(runAgent({ model: responses(server), prompt: 'Go' }));
    const first = messageEnds(events)[0]!;
    expect(first.stopReason).toBe('tool-calls');
    const end = events.find((e) => e.type === 'tool-end');
    expect(end).toMatchObject({ type: 'tool-end', toolName: 'local_shell', isError: true });
    const output = inputOf(server, 1).find((i) => i.type === 'local_shell_call_output');
    expect(output).toMatchObject({ id: 'call_lsh' });
    expect(String(output!.output)).toMatch(/local_shell/);
  });
});

describe('OpenAI Responses: recorded streams', () => {
  it('runs a recorded local_shell_call with the local_shell tool; an unstored reasoning item without encrypted content is not referenced', async () => {
    server = await scriptedServer(
      { events: recorded('openai-local-shell-tool.1.chunks.txt') },
      { events: [...RESPONSES_START, ...responsesMessage(0, ['Listed.']), responsesCompleted()] },
    );
    const commands: string[][] = [];
    const localShell = tool({
      name: 'local_shell',
      description: 'Run a command',
      parameters: z.object({ command: z.array(z.string()) }).loose(),
      providerTools: { openai: { type: 'local_shell' } },
      execute: ({ command }) => {
        commands.push(command);
        return '.\n..\n.bashrc';
      },
    });
    const events = await collectEvents(
      runAgent({ model: responses(server), prompt: 'List home', tools: [localShell] }),
    );
    expect(commands).toEqual([['ls', '-a', '~']]);
    expect(messageEnds(events)[0]!.content).toEqual([
      { type: 'thinking', text: '', id: 'rs_68da7fd65a3481948bbb35ff2c79c6c20faf5df54b42d9a6' },
      {
        type: 'tool-call',
        id: 'call_h3nm8hUG0KO9tVNuRACkL1ri',
        name: 'local_shell',
        args: { type: 'exec', command: ['ls', '-a', '~'], env: {} },
        providerKind: 'local_shell_call',
        itemId: 'lsh_68da7fd99b3c8194bd624b18c0c0851b0faf5df54b42d9a6',
      },
    ]);
    expect(inputOf(server, 1).slice(1)).toEqual([
      {
        type: 'local_shell_call',
        id: 'lsh_68da7fd99b3c8194bd624b18c0c0851b0faf5df54b42d9a6',
        call_id: 'call_h3nm8hUG0KO9tVNuRACkL1ri',
        action: { type: 'exec', command: ['ls', '-a', '~'], env: {} },
        status: 'completed',
      },
      { type: 'local_shell_call_output', id: 'call_h3nm8hUG0KO9tVNuRACkL1ri', output: '.\n..\n.bashrc' },
    ]);
  });

  it('keeps the phases of a recorded commentary + final answer stream apart', async () => {
    server = await scriptedServer({ events: recorded('openai-phase.1.chunks.txt') });
    const message = finishOf(
      await collect(
        responses(server).stream({ messages: [{ role: 'user', content: 'Capital?', timestamp: 0 }] }),
      ),
    ).message;
    expect(message.content).toEqual([
      { type: 'text', text: "I'm going to search for that", phase: 'commentary' },
      { type: 'text', text: 'The capital of France is Paris.', phase: 'final_answer' },
    ]);
    expect(message.model).toBe('gpt-5.3-codex');
  });
});

describe('OpenAI Responses: citations, phases and server tools', () => {
  const annotated = (
    outputIndex: number,
    text: string,
    phase: string,
    annotations: unknown[],
  ): SseEvent[] => {
    const ids = { item_id: `msg_${outputIndex}`, output_index: outputIndex, content_index: 0 };
    const content = [{ type: 'output_text', text, annotations }];
    return [
      responsesEvent('response.output_item.added', {
        output_index: outputIndex,
        item: {
          id: ids.item_id,
          type: 'message',
          role: 'assistant',
          status: 'in_progress',
          content: [],
          phase,
        },
      }),
      responsesEvent('response.output_text.delta', { ...ids, delta: text, logprobs: [] }),
      responsesEvent('response.output_item.done', {
        output_index: outputIndex,
        item: { id: ids.item_id, type: 'message', role: 'assistant', status: 'completed', content, phase },
      }),
    ];
  };
  const webSearch = {
    id: 'ws_1',
    type: 'web_search_call',
    status: 'completed',
    action: { type: 'search', query: 'rxjs release' },
  };
  const citation = {
    type: 'url_citation',
    url: 'https://rxjs.dev',
    title: 'RxJS',
    start_index: 0,
    end_index: 4,
  };

  it('keeps annotations as citations, phases apart, and server tool items as parts that go back verbatim', async () => {
    server = await scriptedServer({
      events: [
        ...RESPONSES_START,
        ...annotated(0, 'Searching.', 'commentary', []),
        ...item(1, webSearch),
        ...annotated(2, 'RxJS 8 is out.', 'final_answer', [citation]),
        responsesCompleted(),
      ],
    });
    const message = finishOf(
      await collect(
        responses(server).stream({ messages: [{ role: 'user', content: 'News?', timestamp: 0 }] }),
      ),
    ).message;
    expect(message.content).toEqual([
      { type: 'text', text: 'Searching.', phase: 'commentary' },
      {
        type: 'provider',
        provider: 'openai',
        kind: 'web_search_call',
        data: webSearch,
        text: 'web search: rxjs release',
      },
      {
        type: 'text',
        text: 'RxJS 8 is out.',
        phase: 'final_answer',
        citations: [{ kind: 'url', url: 'https://rxjs.dev', title: 'RxJS', start: 0, end: 4, raw: citation }],
      },
    ]);
    expect(message.stopReason).toBe('stop');

    await server.close();
    server = await scriptedServer({
      events: [...RESPONSES_START, ...responsesMessage(0, ['ok']), responsesCompleted()],
    });
    await collect(
      responses(server).stream({
        messages: [
          { role: 'user', content: 'News?', timestamp: 0 },
          message,
          { role: 'user', content: 'More', timestamp: 0 },
        ],
      }),
    );
    expect(inputOf(server, 0).slice(1, 4)).toEqual([
      { role: 'assistant', content: 'Searching.', phase: 'commentary' },
      webSearch,
      { role: 'assistant', content: 'RxJS 8 is out.', phase: 'final_answer' },
    ]);
  });

  it('turns a generated image into an image part (and keeps the call to send back)', async () => {
    const generated = {
      id: 'ig_1',
      type: 'image_generation_call',
      status: 'completed',
      result: 'iVBORw0KGgo=',
      output_format: 'png',
    };
    server = await scriptedServer({
      events: [...RESPONSES_START, ...item(0, generated), responsesCompleted()],
    });
    const message = finishOf(
      await collect(
        responses(server).stream({ messages: [{ role: 'user', content: 'Draw', timestamp: 0 }] }),
      ),
    ).message;
    expect(message.content).toEqual([
      {
        type: 'provider',
        provider: 'openai',
        kind: 'image_generation_call',
        data: generated,
        text: 'image generation',
      },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
    ]);
  });

  it.each([
    ['max_output_tokens', 'length'],
    ['content_filter', 'content-filter'],
  ])('maps incomplete (%s) to %s', async (reason, expected) => {
    server = await scriptedServer({
      events: [
        ...RESPONSES_START,
        ...responsesMessage(0, ['Partial']),
        responsesEvent('response.incomplete', {
          response: responseObject('incomplete', { incomplete_details: { reason } }),
        }),
      ],
    });
    const events = await collect(
      responses(server).stream({ messages: [{ role: 'user', content: 'Hi', timestamp: 0 }] }),
    );
    expect(finishOf(events).reason).toBe(expected);
  });
});
