import type { SseEvent } from './sse-test-server.js';
import type { BudgetFigures, ProviderBudgets } from './provider-budgets.js';

/**
 * What the fake provider answers to one request: text, tool calls, or both.
 *
 * @example
 * const answer: FakeAnswer = { toolCalls: [{ name: 'read', args: { path: 'README.md' } }] };
 */
export interface FakeAnswer {
  text?: string;
  toolCalls?: { name: string; args: unknown }[];
  /** Output tokens charged and reported (default: the answer's characters / 4, at least 1). */
  outputTokens?: number;
}

/** The wire protocols the fake provider speaks. @example const p: FakeProtocol = 'anthropic'; */
export type FakeProtocol = 'openai' | 'anthropic';

const tokensOf = (chars: number) => Math.ceil(chars / 4);
const textOf = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value);

/** Characters of one content block (either protocol): its text, arguments or result. */
function blockChars(block: unknown): number {
  if (typeof block === 'string') return block.length;
  if (typeof block !== 'object' || block === null) return 0;
  const b = block as Record<string, unknown>;
  if (typeof b.text === 'string') return b.text.length;
  if (b.type === 'tool_use') return textOf(b.name).length + textOf(b.input).length;
  if (b.type === 'tool_result') return contentChars(b.content);
  if (b.type === 'image' || b.type === 'image_url') return 4_000;
  return 0;
}

function contentChars(content: unknown): number {
  if (Array.isArray(content)) return content.reduce((n: number, block) => n + blockChars(block), 0);
  return blockChars(content);
}

/**
 * The input tokens the fake provider charges for a request body (either protocol): the text of
 * the system prompt, the messages (tool calls by name and arguments) and the tool definitions,
 * 4 characters a token, plus 4 tokens a message — counted from the content, as a provider's
 * tokenizer counts, not from the JSON around it.
 *
 * @example
 * countInputTokens({ messages: [{ role: 'user', content: 'Hello there' }] }); // 7
 */
export function countInputTokens(body: unknown): number {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  let chars = contentChars(b.system);
  const messages = Array.isArray(b.messages) ? (b.messages as Record<string, unknown>[]) : [];
  for (const message of messages) {
    chars += 16 + contentChars(message?.content);
    const calls = Array.isArray(message?.tool_calls) ? (message.tool_calls as Record<string, unknown>[]) : [];
    for (const call of calls) {
      const fn = (call?.function ?? {}) as Record<string, unknown>;
      chars += textOf(fn.name).length + textOf(fn.arguments).length;
    }
  }
  if (Array.isArray(b.tools) && b.tools.length > 0) chars += JSON.stringify(b.tools).length;
  return tokensOf(chars);
}

/** The output tokens of an answer (its own figure, or its characters / 4, at least 1). */
export function countOutputTokens(answer: FakeAnswer): number {
  if (answer.outputTokens !== undefined) return answer.outputTokens;
  const chars =
    (answer.text ?? '').length +
    (answer.toolCalls ?? []).reduce((n, c) => n + c.name.length + textOf(c.args).length, 0);
  return Math.max(1, tokensOf(chars));
}

/** `"120ms"`, `"2.5s"`, `"6m0s"`: OpenAI's reset format. */
function openAIDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)}ms`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms - minutes * 60_000) / 10) / 100;
  return minutes > 0 ? `${minutes}m${seconds}s` : `${seconds}s`;
}

/**
 * The rate-limit headers of a response, as each provider names them: OpenAI's
 * `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` (its `tokens` is the input budget)
 * and Anthropic's `anthropic-ratelimit-{requests,input-tokens,output-tokens,tokens}-*` (resets
 * as RFC 3339 dates of the provider's clock; `tokens` is the most restrictive token budget).
 *
 * @example
 * res.writeHead(200, { ...rateLimitHeaders('openai', budgets, clock.now()) });
 */
export function rateLimitHeaders(
  protocol: FakeProtocol,
  budgets: ProviderBudgets,
  now: number,
): Record<string, string> {
  const f = budgets.figures(now);
  const headers: Record<string, string> = {};
  const put = (name: (figure: 'limit' | 'remaining' | 'reset') => string, b?: BudgetFigures) => {
    if (!b) return;
    headers[name('limit')] = String(b.limit);
    headers[name('remaining')] = String(b.remaining);
    headers[name('reset')] =
      protocol === 'openai' ? openAIDuration(b.resetMs) : new Date(now + b.resetMs).toISOString();
  };
  if (protocol === 'openai') {
    put((figure) => `x-ratelimit-${figure}-requests`, f.requests);
    put((figure) => `x-ratelimit-${figure}-tokens`, f.inputTokens);
    return headers;
  }
  put((figure) => `anthropic-ratelimit-requests-${figure}`, f.requests);
  put((figure) => `anthropic-ratelimit-input-tokens-${figure}`, f.inputTokens);
  put((figure) => `anthropic-ratelimit-output-tokens-${figure}`, f.outputTokens);
  const tightest = [f.inputTokens, f.outputTokens]
    .filter((b): b is BudgetFigures => b !== undefined)
    .sort((a, b) => a.remaining - b.remaining)[0];
  put((figure) => `anthropic-ratelimit-tokens-${figure}`, tightest);
  return headers;
}

/**
 * The 429 body of each provider.
 *
 * @example
 * res.end(JSON.stringify(rateLimitBody('anthropic', 'input tokens')));
 */
export function rateLimitBody(protocol: FakeProtocol, budget: string): unknown {
  const message = `Rate limit reached for ${budget} per minute. Please try again later.`;
  return protocol === 'openai'
    ? {
        error: {
          message,
          type: budget === 'requests' ? 'requests' : 'tokens',
          param: null,
          code: 'rate_limit_exceeded',
        },
      }
    : { type: 'error', error: { type: 'rate_limit_error', message }, request_id: 'req_fake' };
}

/** The SSE body of a Chat Completions stream answering `answer`. */
function openAIEvents(model: string, answer: FakeAnswer, input: number, output: number): SseEvent[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, usage: unknown = null) => ({
    data: {
      id: 'chatcmpl-fake',
      object: 'chat.completion.chunk',
      created: 1,
      model,
      choices: finish === 'usage' ? [] : [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      usage,
    },
  });
  const calls = answer.toolCalls ?? [];
  const usage = { prompt_tokens: input, completion_tokens: output, total_tokens: input + output };
  return [
    chunk({ role: 'assistant', content: '' }),
    ...(answer.text ? [chunk({ content: answer.text })] : []),
    ...calls.map((call, index) =>
      chunk({
        tool_calls: [
          {
            index,
            id: `call_${index}`,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.args ?? {}) },
          },
        ],
      }),
    ),
    chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'),
    chunk({}, 'usage', usage),
    { data: '[DONE]' },
  ];
}

/** The SSE body of an Anthropic Messages stream answering `answer`. */
function anthropicEvents(model: string, answer: FakeAnswer, input: number, output: number): SseEvent[] {
  const sse = (type: string, fields: Record<string, unknown> = {}): SseEvent => ({
    event: type,
    data: { type, ...fields },
  });
  const blocks: SseEvent[] = [];
  let index = 0;
  if (answer.text) {
    blocks.push(
      sse('content_block_start', { index, content_block: { type: 'text', text: '' } }),
      sse('content_block_delta', { index, delta: { type: 'text_delta', text: answer.text } }),
      sse('content_block_stop', { index }),
    );
    index++;
  }
  for (const call of answer.toolCalls ?? []) {
    blocks.push(
      sse('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: `toolu_${index}`, name: call.name, input: {} },
      }),
      sse('content_block_delta', {
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(call.args ?? {}) },
      }),
      sse('content_block_stop', { index }),
    );
    index++;
  }
  const stop = (answer.toolCalls ?? []).length > 0 ? 'tool_use' : 'end_turn';
  return [
    sse('message_start', {
      message: {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: input, output_tokens: 1 },
      },
    }),
    ...blocks,
    sse('message_delta', {
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: output },
    }),
    sse('message_stop'),
  ];
}

/**
 * The streamed body of a served request, in the request's protocol.
 *
 * @example
 * const events = answerEvents('openai', 'gpt-fake', { text: 'Hi' }, 12, 1);
 */
export function answerEvents(
  protocol: FakeProtocol,
  model: string,
  answer: FakeAnswer,
  inputTokens: number,
  outputTokens: number,
): SseEvent[] {
  return protocol === 'openai'
    ? openAIEvents(model, answer, inputTokens, outputTokens)
    : anthropicEvents(model, answer, inputTokens, outputTokens);
}
