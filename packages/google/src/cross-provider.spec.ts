import { lastValueFrom, toArray } from 'rxjs';
import { jsonSchema, runAgent, tool, type AgentEvent, type AgentMessage, type Message } from '@rxagent/core';
import { portableTranscript, swappableModel } from '@rxagent/core/models';
import { anthropic } from '@rxagent/anthropic';
import { openai } from '@rxagent/openai';
import { startSseTestServer, type SseEvent, type SseScript, type SseTestServer } from '@rxagent/testing';
import { google } from './google.js';
import { chunk, textStream } from './test-support/google-fixtures.test.js';

// One conversation moving Anthropic → Gemini → OpenAI (and back to Gemini) through the three
// real SDKs, each against its local server, with `swappableModel` (which sends each provider
// `portableTranscript(messages, provider)`): what one provider signed never reaches another,
// each request is one its provider accepts, and Gemini gets its own signatures back.

const ANTHROPIC_SIGNATURE = 'EqQBsig-anthropic-only';
const GEMINI_THOUGHT = 'gemini-thought-signature';
const GEMINI_CALL = 'gemini-call-signature';

const add = tool({
  name: 'add',
  description: 'Add two numbers',
  parameters: jsonSchema<{ a: number; b: number }>({
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  }),
  execute: ({ a, b }) => a + b,
});

// ---- Anthropic and OpenAI wire events (their own adapters' suites cover them in depth) ----

const anthropicEvent = (type: string, fields: Record<string, unknown> = {}): SseEvent => ({
  event: type,
  data: { type, ...fields },
});
function anthropicTurn(blocks: SseEvent[], stopReason: string): SseScript {
  return {
    events: [
      anthropicEvent('message_start', {
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      }),
      ...blocks,
      anthropicEvent('message_delta', {
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: 5 },
      }),
      anthropicEvent('message_stop'),
    ],
  };
}
const anthropicBlock = (index: number, block: Record<string, unknown>, deltas: Record<string, unknown>[]) => [
  anthropicEvent('content_block_start', { index, content_block: block }),
  ...deltas.map((delta) => anthropicEvent('content_block_delta', { index, delta })),
  anthropicEvent('content_block_stop', { index }),
];

const chat = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
  data: {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model: 'gpt-test',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  },
});

// ---- the three servers ----

let servers: Record<'anthropic' | 'google' | 'openai', SseTestServer>;
const queues: Record<'anthropic' | 'google' | 'openai', SseScript[]> = {
  anthropic: [],
  google: [],
  openai: [],
};
const none: SseScript = { status: 500, json: { error: { message: 'no script left' } } };

beforeEach(async () => {
  servers = {
    anthropic: await startSseTestServer(() => queues.anthropic.shift() ?? none),
    google: await startSseTestServer(() => queues.google.shift() ?? none),
    openai: await startSseTestServer(() => queues.openai.shift() ?? none),
  };
});
afterEach(async () => {
  await Promise.all(Object.values(servers).map((s) => s.close()));
});

const claude = () =>
  anthropic('claude-test', { apiKey: 'sk-ant-test-key-0123456789', baseURL: servers.anthropic.url });
const gemini = () =>
  google('gemini-test', { apiKey: 'AIzaSy-test-key-0123456789', baseURL: servers.google.url });
const gpt = () =>
  openai('gpt-test', { apiKey: 'sk-openai-test-key-98765', baseURL: `${servers.openai.url}/v1` });

async function turn(model: ReturnType<typeof swappableModel>, prior: AgentMessage[], prompt: string) {
  const events = await lastValueFrom(
    runAgent({ model, tools: [add], messages: prior, prompt }).pipe(toArray()),
  );
  const end = events.at(-1) as Extract<AgentEvent, { type: 'agent-end' }>;
  expect(end.reason).toBe('completed');
  return [...prior, ...end.messages];
}

describe('a conversation moving Anthropic → Gemini → OpenAI', () => {
  it('keeps every request valid for its provider and each signature with its author', async () => {
    const model = swappableModel(claude());

    // 1. Anthropic thinks (signed), calls add, answers.
    queues.anthropic = [
      anthropicTurn(
        [
          ...anthropicBlock(0, { type: 'thinking', thinking: '', signature: '' }, [
            { type: 'thinking_delta', thinking: 'Add them.' },
            { type: 'signature_delta', signature: ANTHROPIC_SIGNATURE },
          ]),
          ...anthropicBlock(1, { type: 'tool_use', id: 'toolu_01', name: 'add', input: {} }, [
            { type: 'input_json_delta', partial_json: '{"a":2,"b":3}' },
          ]),
        ],
        'tool_use',
      ),
      anthropicTurn(
        anthropicBlock(0, { type: 'text', text: '' }, [{ type: 'text_delta', text: '2 + 3 = 5.' }]),
        'end_turn',
      ),
    ];
    let transcript = await turn(model, [], 'What is 2 + 3?');

    // 2. Gemini continues: it never sees Anthropic's signed thinking; Anthropic's call and
    // result arrive as a functionCall and a functionResponse. It thinks, calls add (signed), answers.
    model.swap(gemini());
    queues.google = [
      {
        events: [
          chunk([{ text: 'Add again.', thought: true, thoughtSignature: GEMINI_THOUGHT }]),
          chunk(
            [{ functionCall: { name: 'add', args: { a: 5, b: 5 } }, thoughtSignature: GEMINI_CALL }],
            'STOP',
          ),
        ],
      },
      { events: textStream(['5 + 5 = 10.']) },
    ];
    transcript = await turn(model, transcript, 'And 5 + 5?');
    const toGemini = servers.google.requests[0]!.body as { contents: unknown[] };
    expect(JSON.stringify(toGemini)).not.toContain(ANTHROPIC_SIGNATURE);
    expect(JSON.stringify(toGemini)).not.toContain('Add them.');
    expect(toGemini.contents).toEqual([
      { role: 'user', parts: [{ text: 'What is 2 + 3?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'add', args: { a: 2, b: 3 } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'add', response: { output: '5' } } }] },
      { role: 'model', parts: [{ text: '2 + 3 = 5.' }] },
      { role: 'user', parts: [{ text: 'And 5 + 5?' }] },
    ]);
    expect(transcript.at(-1)).toMatchObject({ role: 'assistant', provider: 'google' });

    // 3. OpenAI continues: no Gemini signature, no thinking; both earlier calls as tool calls.
    model.swap(gpt());
    queues.openai = [
      {
        events: [
          chat({ role: 'assistant', content: 'Done: 5 and 10.' }),
          chat({}, 'stop'),
          { data: '[DONE]' },
        ],
      },
    ];
    transcript = await turn(model, transcript, 'Summary?');
    const toOpenAI = servers.openai.requests[0]!.body as { messages: Record<string, unknown>[] };
    for (const secret of [ANTHROPIC_SIGNATURE, GEMINI_THOUGHT, GEMINI_CALL, 'Add them.', 'Add again.']) {
      expect(JSON.stringify(toOpenAI)).not.toContain(secret);
    }
    expect(toOpenAI.messages.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['5', '10']);
    expect(
      toOpenAI.messages
        .filter((m) => m.tool_calls)
        .map((m) => (m.tool_calls as { function: { name: string } }[])[0]!.function.name),
    ).toEqual(['add', 'add']);

    // 4. Back on Gemini: its own thought and call signatures go back verbatim, Anthropic's never.
    model.swap(gemini());
    queues.google = [{ events: textStream(['You are welcome.']) }];
    await turn(model, transcript, 'Thanks!');
    const back = servers.google.requests.at(-1)!.body as {
      contents: { role: string; parts: Record<string, unknown>[] }[];
    };
    expect(JSON.stringify(back)).not.toContain(ANTHROPIC_SIGNATURE);
    const geminiTurn = back.contents.find((c) => c.parts.some((p) => p.thought === true));
    expect(geminiTurn?.parts).toEqual([
      { text: 'Add again.', thought: true, thoughtSignature: GEMINI_THOUGHT },
      { functionCall: { name: 'add', args: { a: 5, b: 5 } }, thoughtSignature: GEMINI_CALL },
    ]);
    // Roles alternate where Gemini needs them to: no two model contents in a row.
    const roles = back.contents.map((c) => c.role);
    expect(roles.some((r, i) => r === 'model' && roles[i + 1] === 'model')).toBe(false);
  });

  it('portableTranscript leaves Gemini its signatures and takes them from everyone else', () => {
    const geminiTurn: Message = {
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'Plan.', signature: GEMINI_THOUGHT },
        { type: 'text', text: 'Hi.' },
      ],
      stopReason: 'stop',
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 },
      provider: 'google',
      model: 'gemini-test',
      timestamp: 0,
    };
    expect(portableTranscript([geminiTurn], 'google')[0]).toBe(geminiTurn);
    expect(portableTranscript([geminiTurn], 'openai')[0]).toMatchObject({
      content: [
        { type: 'thinking', text: 'Plan.' },
        { type: 'text', text: 'Hi.' },
      ],
    });
    expect(JSON.stringify(portableTranscript([geminiTurn], 'anthropic'))).not.toContain(GEMINI_THOUGHT);
  });
});
