import { encodeSse } from '@rxagent/testing';

/**
 * An OpenAI Chat Completions stream of `deltas` one-word content chunks, a finish chunk, a
 * usage chunk and `[DONE]`, as one SSE text.
 *
 * @example
 * startSseTestServer(() => ({ events: [{ raw: openAIChatSseBody(5000) }] }));
 */
export function openAIChatSseBody(deltas: number, model = 'gpt-bench'): string {
  const chunk = (delta: Record<string, unknown>, finish: string | null, usage: unknown = null) =>
    encodeSse({
      data: {
        id: 'chatcmpl-bench',
        object: 'chat.completion.chunk',
        created: 1767225600,
        model,
        choices: finish === 'usage' ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finish }],
        usage,
      },
    });
  const parts: string[] = [chunk({ role: 'assistant', content: '' }, null)];
  for (let i = 0; i < deltas; i++) parts.push(chunk({ content: 'tok ' }, null));
  parts.push(chunk({}, 'stop'));
  parts.push(chunk({}, 'usage', { prompt_tokens: 10, completion_tokens: deltas, total_tokens: 10 + deltas }));
  parts.push(encodeSse({ data: '[DONE]' }));
  return parts.join('');
}

/**
 * An Anthropic Messages stream of `deltas` text deltas in one text block, as one SSE text.
 *
 * @example
 * startSseTestServer(() => ({ events: [{ raw: anthropicSseBody(5000) }] }));
 */
export function anthropicSseBody(deltas: number, model = 'claude-bench'): string {
  const event = (type: string, data: Record<string, unknown>) =>
    encodeSse({ event: type, data: { type, ...data } });
  const parts: string[] = [
    event('message_start', {
      message: {
        id: 'msg_bench',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
  ];
  const delta = event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'tok ' } });
  for (let i = 0; i < deltas; i++) parts.push(delta);
  parts.push(
    event('content_block_stop', { index: 0 }),
    event('message_delta', {
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: deltas },
    }),
    event('message_stop', {}),
  );
  return parts.join('');
}
