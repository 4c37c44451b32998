import { z } from 'zod';
import { runAgent, tool, type AgentEvent, type AnyTool, type AssistantMessage } from '@rxagent/core';
import { collectEvents, type SseTestServer } from '@rxagent/testing';
import { bodyOf, chunk, scriptedServer, testModel, textStream } from './test-support/google-fixtures.test.js';

// Gemini's server-run tools (Google Search grounding, code execution, URL context) through
// the real SDK: provider parts with their citations, `stop`, no client tool run, and what goes
// back on the next request. The streams are authored after the Gemini API reference
// (`groundingMetadata`, `executableCode` / `codeExecutionResult`, `urlContextMetadata`): no
// recording of them is published in the chunk format.

let server: SseTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function serverTool(name: string, declaration: Record<string, unknown>): { tool: AnyTool; ran: unknown[] } {
  const ran: unknown[] = [];
  const declared = tool({
    name,
    description: `${name} (run by Gemini)`,
    parameters: z.unknown(),
    providerTools: { google: declaration },
    execute: (args) => {
      ran.push(args);
      return 'ran locally';
    },
  });
  return { tool: declared, ran };
}

function assistants(events: AgentEvent[]): AssistantMessage[] {
  return events.flatMap((e) =>
    e.type === 'message-end' && e.message.role === 'assistant' ? [e.message] : [],
  );
}

const ANSWER = 'Café RxJS 7.8 is current.';
const grounding = {
  webSearchQueries: ['latest rxjs version'],
  searchEntryPoint: { renderedContent: '<div>…</div>' },
  groundingChunks: [
    { web: { uri: 'https://rxjs.dev/changelog', title: 'rxjs.dev' } },
    { web: { uri: 'https://github.com/ReactiveX/rxjs/releases', title: 'github.com' } },
  ],
  groundingSupports: [
    // "RxJS 7.8 is current." starts after "Café " (6 bytes, 5 characters).
    { segment: { startIndex: 6, endIndex: 26, text: 'RxJS 7.8 is current.' }, groundingChunkIndices: [0, 1] },
  ],
};

async function runWith(declared: AnyTool, events: ReturnType<typeof chunk>[]) {
  server = await scriptedServer({ events }, { events: textStream(['You are welcome.']) });
  const model = testModel(server);
  const first = await collectEvents(runAgent({ model, prompt: 'Latest rxjs?', tools: [declared] }));
  expect(first.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  expect(server.requests).toHaveLength(1);
  expect(first.some((e) => e.type === 'tool-start')).toBe(false);
  const transcript = (first.at(-1) as Extract<AgentEvent, { type: 'agent-end' }>).messages;
  await collectEvents(runAgent({ model, prompt: 'Thanks', messages: transcript, tools: [declared] }));
  return { message: assistants(first)[0]!, next: bodyOf(server, 1) };
}

describe('Gemini server tools', () => {
  it('declares Google Search and keeps its grounding as a provider part, citations on the answer', async () => {
    const search = serverTool('google_search', { googleSearch: {} });
    const { message, next } = await runWith(search.tool, [
      chunk([{ text: 'Café RxJS 7.8 ' }]),
      chunk([{ text: 'is current.' }], 'STOP', { groundingMetadata: grounding }),
    ]);
    expect(search.ran).toEqual([]);
    expect(message.stopReason).toBe('stop');
    expect(bodyOf(server!, 0).tools).toEqual([{ googleSearch: {} }]);
    const [text, part] = message.content;
    expect(text).toMatchObject({ type: 'text', text: ANSWER });
    expect(text?.type === 'text' && text.citations).toEqual([
      expect.objectContaining({
        kind: 'url',
        url: 'https://rxjs.dev/changelog',
        start: 5,
        end: 25,
        citedText: 'RxJS 7.8 is current.',
      }),
      expect.objectContaining({
        kind: 'url',
        url: 'https://github.com/ReactiveX/rxjs/releases',
        start: 5,
        end: 25,
      }),
    ]);
    expect(ANSWER.slice(5, 25)).toBe('RxJS 7.8 is current.');
    expect(part).toMatchObject({
      type: 'provider',
      provider: 'google',
      kind: 'grounding_metadata',
      data: grounding,
    });
    expect((part as { text: string }).text).toContain('latest rxjs version');
    // Grounding has no input form: the next request sends the answer only.
    expect((next.contents as unknown[])[1]).toEqual({ role: 'model', parts: [{ text: ANSWER }] });
  });

  it('keeps code execution as provider parts and sends them back verbatim', async () => {
    const code = serverTool('code_execution', { codeExecution: {} });
    const executable = { executableCode: { language: 'PYTHON', code: 'print(sum(range(10)))' } };
    const result = { codeExecutionResult: { outcome: 'OUTCOME_OK', output: '45\n' } };
    const { message, next } = await runWith(code.tool, [
      chunk([executable]),
      chunk([result]),
      chunk([{ text: 'The sum is 45.' }], 'STOP'),
    ]);
    expect(code.ran).toEqual([]);
    expect(message.stopReason).toBe('stop');
    expect(message.content.map((p) => (p.type === 'provider' ? p.kind : p.type))).toEqual([
      'executable_code',
      'code_execution_result',
      'text',
    ]);
    expect(message.content[1]).toMatchObject({ text: 'code result (OUTCOME_OK):\n45\n' });
    expect((next.contents as unknown[])[1]).toEqual({
      role: 'model',
      parts: [executable, result, { text: 'The sum is 45.' }],
    });
  });

  it('keeps URL context as a provider part (not sent back)', async () => {
    const urls = serverTool('url_context', { urlContext: {} });
    const urlContextMetadata = {
      urlMetadata: [
        {
          retrievedUrl: 'https://rxjs.dev/guide/overview',
          urlRetrievalStatus: 'URL_RETRIEVAL_STATUS_SUCCESS',
        },
      ],
    };
    const { message, next } = await runWith(urls.tool, [
      chunk([{ text: 'RxJS composes streams.' }], 'STOP', { urlContextMetadata }),
    ]);
    expect(urls.ran).toEqual([]);
    expect(message.stopReason).toBe('stop');
    expect(message.content[1]).toMatchObject({
      kind: 'url_context_metadata',
      data: urlContextMetadata,
      text: 'url context: https://rxjs.dev/guide/overview (URL_RETRIEVAL_STATUS_SUCCESS)',
    });
    expect((next.contents as unknown[])[1]).toEqual({
      role: 'model',
      parts: [{ text: 'RxJS composes streams.' }],
    });
  });
});
