import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { ModelEvent } from '@rxagent/core';
import { OpenAIChatChunkMapper } from './map-openai-chat-chunk.js';

const chunk = (delta: Record<string, unknown>, finish: string | null = null, index = 0) =>
  ({
    id: 'chatcmpl-9',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-test-1',
    choices: [{ index, delta, finish_reason: finish, logprobs: null }],
  }) as ChatCompletionChunk;

const usageChunk = {
  id: 'chatcmpl-9',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-test-1',
  choices: [],
  usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
} as ChatCompletionChunk;

const run = (mapper: OpenAIChatChunkMapper, chunks: ChatCompletionChunk[]): ModelEvent[] =>
  chunks.flatMap((c) => mapper.map(c));

describe('OpenAIChatChunkMapper', () => {
  it('is terminated by a finish_reason and closes with usage and finish on flush', () => {
    const mapper = new OpenAIChatChunkMapper('gpt-test', 5);
    const events = run(mapper, [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hi' })]);
    expect(events).toEqual([{ type: 'text-delta', index: 0, text: 'Hi' }]);
    expect(mapper.terminated).toBe(false);
    run(mapper, [chunk({}, 'stop')]);
    expect(mapper.terminated).toBe(true);
    expect(mapper.done).toBe(false);
    run(mapper, [usageChunk]);
    const closing = mapper.flush();
    expect(closing.map((e) => e.type)).toEqual(['usage', 'finish']);
    expect(closing[1]).toMatchObject({
      reason: 'stop',
      message: { model: 'gpt-test-1', responseId: 'chatcmpl-9', timestamp: 5, usage: { totalTokens: 5 } },
    });
  });

  it('treats a new id at a reused wire index as a new call (some compatible servers)', () => {
    const mapper = new OpenAIChatChunkMapper('gpt-test', 0);
    run(mapper, [
      chunk({
        tool_calls: [{ index: 0, id: 'a', type: 'function', function: { name: 'x', arguments: '{"n":1}' } }],
      }),
      chunk({
        tool_calls: [{ index: 0, id: 'b', type: 'function', function: { name: 'y', arguments: '{"n":2}' } }],
      }),
      chunk({}, 'stop'),
    ]);
    const finish = mapper.flush().at(-1);
    expect(finish).toMatchObject({
      reason: 'tool-calls',
      message: {
        content: [
          { type: 'tool-call', id: 'a', name: 'x', args: { n: 1 } },
          { type: 'tool-call', id: 'b', name: 'y', args: { n: 2 } },
        ],
      },
    });
  });

  it('maps compatible reasoning fields to thinking before the text', () => {
    const mapper = new OpenAIChatChunkMapper('gpt-test', 0);
    expect(
      run(mapper, [
        chunk({ reasoning_content: 'Hmm. ' }),
        chunk({ reasoning: 'Ok.' }),
        chunk({ content: 'Yes' }),
      ]),
    ).toEqual([
      { type: 'thinking-delta', index: 0, text: 'Hmm. ' },
      { type: 'thinking-delta', index: 0, text: 'Ok.' },
      { type: 'text-delta', index: 1, text: 'Yes' },
    ]);
  });

  it('ignores choices other than the first', () => {
    const mapper = new OpenAIChatChunkMapper('gpt-test', 0);
    expect(run(mapper, [chunk({ content: 'other' }, 'stop', 1)])).toEqual([]);
    expect(mapper.terminated).toBe(false);
  });

  it('keeps the partial message for errors', () => {
    const mapper = new OpenAIChatChunkMapper('gpt-test', 0);
    run(mapper, [chunk({ content: 'Hal' })]);
    expect(mapper.partial('cut')).toMatchObject({
      content: [{ type: 'text', text: 'Hal' }],
      stopReason: 'error',
    });
  });
});
