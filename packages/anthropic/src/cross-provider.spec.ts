import { lastValueFrom, toArray } from 'rxjs';
import { fallbackModel, swappableModel } from '@rxagent/core/models';
import {
  jsonSchema,
  runAgent,
  tool,
  type AgentEvent,
  type AgentMessage,
  type AssistantMessage,
} from '@rxagent/core';
import { openai } from '@rxagent/openai';
import { startSseTestServer, type SseEvent, type SseScript, type SseTestServer } from '@rxagent/testing';
import { anthropic } from './anthropic.js';
import {
  TEST_API_KEY,
  textBlock,
  thinkingBlock,
  toolUseBlock,
  turn,
} from './anthropic-stream-fixtures.test.js';

// A conversation moving between Anthropic and OpenAI through the real SDK clients, each
// against its local SSE server: what one provider signed is never sent to the other, and
// each request is one its provider accepts.

const OPENAI_KEY = 'sk-openai-test-key-98765';
const SIGNATURE = 'EqQBsig-anthropic-only';

function chat(delta: Record<string, unknown>, finish: string | null = null): SseEvent {
  return {
    data: {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1767225600,
      model: 'gpt-test-served',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    },
  };
}
const chatText = (text: string): SseScript => ({
  events: [chat({ role: 'assistant', content: text }), chat({}, 'stop'), { data: '[DONE]' }],
});
const chatCall = (id: string, name: string, args: string): SseScript => ({
  events: [
    chat({
      role: 'assistant',
      content: null,
      tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: args } }],
    }),
    chat({}, 'tool_calls'),
    { data: '[DONE]' },
  ],
});

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

let anthropicServer: SseTestServer;
let openaiServer: SseTestServer;
let anthropicQueue: SseScript[] = [];
let openaiQueue: SseScript[] = [];
const none: SseScript = { status: 500, json: { error: { message: 'no script left' } } };

beforeEach(async () => {
  anthropicServer = await startSseTestServer(() => anthropicQueue.shift() ?? none);
  openaiServer = await startSseTestServer(() => openaiQueue.shift() ?? none);
});
afterEach(async () => {
  await anthropicServer.close();
  await openaiServer.close();
});

const claude = () => anthropic('claude-test', { apiKey: TEST_API_KEY, baseURL: anthropicServer.url });
const gpt = () => openai('gpt-test', { apiKey: OPENAI_KEY, baseURL: `${openaiServer.url}/v1` });

async function transcriptOf(
  run: Promise<AgentEvent[]>,
  prior: readonly AgentMessage[],
): Promise<AgentMessage[]> {
  const events = await run;
  const end = events.at(-1);
  if (end?.type !== 'agent-end') throw new Error(`the run did not end: ${JSON.stringify(end)}`);
  expect(end.reason).toBe('completed');
  return [...prior, ...end.messages];
}

/** Roles of an Anthropic request strictly alternate, starting with the user. */
function alternates(messages: { role: string }[]): boolean {
  return messages.every((m, i) => m.role === (i % 2 === 0 ? 'user' : 'assistant'));
}

describe('a transcript moving between Anthropic and OpenAI', () => {
  it('continues from Anthropic on OpenAI and back, never sending a signature to the wrong provider', async () => {
    const model = swappableModel(claude());
    const run = (messages: readonly AgentMessage[], prompt: string) =>
      lastValueFrom(runAgent({ model, tools: [add], messages, prompt }).pipe(toArray()));

    // 1. Anthropic thinks (signed), calls a tool, answers.
    anthropicQueue = [
      turn(
        [
          ...thinkingBlock(0, ['Add them.'], SIGNATURE),
          ...toolUseBlock(1, 'toolu_01', 'add', ['{"a":2,', '"b":3}']),
        ],
        'tool_use',
      ),
      turn(textBlock(0, '2 + 3 = 5.')),
    ];
    let transcript = await transcriptOf(run([], 'What is 2 + 3?'), []);
    const signed = transcript.find(
      (m): m is AssistantMessage => m.role === 'assistant' && m.content.some((p) => p.type === 'thinking'),
    );
    expect(signed?.content[0]).toEqual({ type: 'thinking', text: 'Add them.', signature: SIGNATURE });

    // 2. The same conversation on OpenAI.
    model.swap(gpt());
    openaiQueue = [chatCall('call_oa_1', 'add', '{"a":5,"b":5}'), chatText('5 + 5 = 10.')];
    transcript = await transcriptOf(run(transcript, 'And 5 + 5?'), transcript);
    const toOpenAI = JSON.stringify(openaiServer.requests[0]?.body);
    expect(toOpenAI).not.toContain(SIGNATURE);
    expect(toOpenAI).not.toContain('Add them.');
    expect(openaiServer.requests[0]?.body).toMatchObject({
      messages: [
        { role: 'user', content: 'What is 2 + 3?' },
        {
          role: 'assistant',
          tool_calls: [
            { id: 'toolu_01', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_01', content: '5' },
        { role: 'assistant', content: '2 + 3 = 5.' },
        { role: 'user', content: 'And 5 + 5?' },
      ],
    });
    expect(transcript.at(-1)).toMatchObject({ role: 'assistant', provider: 'openai' });

    // 3. Back on Anthropic: its own signed thinking goes back verbatim, OpenAI's turn as tool_use.
    model.swap(claude());
    anthropicQueue = [turn(textBlock(0, 'Both done.'))];
    await transcriptOf(run(transcript, 'Thanks!'), transcript);
    const body = anthropicServer.requests.at(-1)?.body as {
      messages: { role: string; content: { type: string }[] }[];
    };
    expect(alternates(body.messages)).toBe(true);
    expect(body.messages[1]?.content[0]).toEqual({
      type: 'thinking',
      thinking: 'Add them.',
      signature: SIGNATURE,
    });
    expect(JSON.stringify(body)).toContain(
      '"type":"tool_use","id":"call_oa_1","name":"add","input":{"a":5,"b":5}',
    );
    expect(JSON.stringify(body)).toContain('"type":"tool_result","tool_use_id":"call_oa_1"');
  });

  it('drops what another provider signed before it reaches Anthropic', async () => {
    const foreign: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'private reasoning', signature: 'opaque-openai-blob' },
        { type: 'text', text: 'Hello.' },
      ],
      stopReason: 'stop',
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 },
      provider: 'openai',
      model: 'gpt-test',
      timestamp: 0,
    };
    anthropicQueue = [turn(textBlock(0, 'Hi again.'))];
    const model = swappableModel(claude());
    const messages: AgentMessage[] = [{ role: 'user', content: 'Hi', timestamp: 0 }, foreign];
    await transcriptOf(
      lastValueFrom(runAgent({ model, messages, prompt: 'Again?' }).pipe(toArray())),
      messages,
    );
    const body = JSON.stringify(anthropicServer.requests[0]?.body);
    expect(body).not.toContain('opaque-openai-blob');
    expect(body).not.toContain('private reasoning');
    expect(body).toContain('Hello.');
  });

  it('fails over from an overloaded Anthropic to OpenAI; the answer says OpenAI wrote it', async () => {
    anthropicQueue = [
      { status: 529, json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
    ];
    openaiQueue = [chatText('Answered by OpenAI.')];
    const model = fallbackModel([claude(), gpt()]);
    const failovers: unknown[] = [];
    model.events$.subscribe((e) => failovers.push(e));
    const transcript = await transcriptOf(
      lastValueFrom(runAgent({ model, prompt: 'Hi' }).pipe(toArray())),
      [],
    );
    expect(transcript.at(-1)).toMatchObject({
      role: 'assistant',
      provider: 'openai',
      model: 'gpt-test-served',
    });
    expect(failovers).toEqual([
      expect.objectContaining({
        type: 'failover',
        from: 'anthropic/claude-test',
        to: 'openai/gpt-test',
        reason: 'overloaded',
      }),
      { type: 'answered', provider: 'openai', modelId: 'gpt-test', index: 1 },
    ]);
    expect(anthropicServer.requests).toHaveLength(1);
  });
});
