import { runAgent } from '@rxagent/core';
import { openai } from '@rxagent/openai';
import { startSseTestServer, type SseEvent, type SseStep, type SseTestServer } from '@rxagent/testing';
import { forkRun } from './fork-run.js';
import { recordRun } from './record-run.js';
import { readRunLog } from './read-run-log.js';
import { memoryLog } from './run-log-sink.js';
import { countingTools, eventsOf } from './run-fixtures.test.js';

// Chat Completions stream chunks (the shape the OpenAI API streams; see @rxagent/openai's fixtures).
const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseEvent => ({
  data: {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model: 'gpt-test',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    usage: null,
  },
});
const usage: SseEvent = {
  data: {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model: 'gpt-test',
    choices: [],
    usage: { prompt_tokens: 14, completion_tokens: 6, total_tokens: 20 },
  },
};
const toolCall: SseStep[] = [
  chunk({ role: 'assistant', content: null }),
  chunk({
    tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'lookup', arguments: '' } }],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"n":1}' } }] }),
  chunk({}, 'tool_calls'),
  usage,
  { data: '[DONE]' },
];
const answer: SseStep[] = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ content: 'It is 2.' }),
  chunk({}, 'stop'),
  usage,
  { data: '[DONE]' },
];

let server: SseTestServer;
beforeEach(async () => {
  // The model asks for the tool first, then answers once it has a result.
  server = await startSseTestServer((request) => ({
    events: (request.body as { messages: { role: string }[] }).messages.some((m) => m.role === 'tool')
      ? answer
      : toolCall,
  }));
});
afterEach(() => server.close());

describe('a fork through the official openai client', () => {
  const model = () => openai('gpt-test', { apiKey: 'sk-test', baseURL: `${server.url}/v1` });

  async function recordOriginal() {
    const sink = memoryLog();
    const { tools } = countingTools();
    await eventsOf(
      recordRun(runAgent({ model: model(), tools, system: 'Be brief.', prompt: 'Double 1.' }), sink),
    );
    return readRunLog(sink.lines);
  }

  it('sends, as its first request, the original request byte for byte', async () => {
    const log = await recordOriginal();
    expect(server.requests).toHaveLength(2);
    const { tools } = countingTools();
    await eventsOf(forkRun(log, { at: { step: 1 }, config: { model: model(), tools, system: 'Be brief.' } }));
    expect(server.requests).toHaveLength(3);
    const [, original, fork] = server.requests.map((r) => r.rawBody);
    expect(original).toContain('"role":"tool"');
    expect(fork).toBe(original);
  });

  it('with a tool result edited, differs from the original body only in that result', async () => {
    const log = await recordOriginal();
    const { tools } = countingTools();
    await eventsOf(
      forkRun(log, {
        at: { toolCallId: 'c1' },
        edit: { kind: 'tool-result', toolCallId: 'c1', content: 'found 99' },
        config: { model: model(), tools, system: 'Be brief.' },
      }),
    );
    const [, original = '', fork = ''] = server.requests.map((r) => r.rawBody);
    let same = 0;
    while (same < original.length && original[same] === fork[same]) same++;
    // Byte-identical up to the edit: the bodies part inside the edited result's text.
    expect(original.slice(0, same)).toMatch(/"tool_call_id":"c1","content":"found $/);
    expect(fork).toBe(original.replace('"content":"found 2"', '"content":"found 99"'));
  });
});
