import type { ChatModel } from '../model/chat-model.js';

/**
 * How a run gets its structured final answer: `'native'` (the provider's JSON-schema mode:
 * OpenAI `json_schema` strict, Anthropic structured outputs), `'tool'` (a `final_answer` tool
 * whose arguments are the answer) or `'auto'` (the default: native where the provider and
 * model have it, the tool otherwise).
 *
 * @example
 * runAgent({ model, prompt, output: schema, outputMode: 'tool' });
 */
export type OutputMode = 'auto' | 'native' | 'tool';

// Models of the two providers that predate their JSON-schema modes.
const NO_NATIVE: Readonly<Record<string, RegExp>> = {
  openai: /^(gpt-3\.5|gpt-4(-\d{4}|-turbo|-32k|$)|o1-(mini|preview))/,
  anthropic: /^claude-(3-|instant|2|opus-4-0|opus-4-20|opus-4$|sonnet-4-0|sonnet-4-20|sonnet-4$)/,
};

/**
 * The mode a run uses for `model`: `mode` unless `'auto'`; then native for OpenAI and
 * Anthropic models that have it, the `final_answer` tool for everything else.
 *
 * @example
 * resolveOutputMode(openai('gpt-4o-mini'), 'auto'); // 'native'
 */
export function resolveOutputMode(model: ChatModel, mode: OutputMode = 'auto'): 'native' | 'tool' {
  if (mode !== 'auto') return mode;
  const old = Object.prototype.hasOwnProperty.call(NO_NATIVE, model.provider)
    ? NO_NATIVE[model.provider]
    : undefined;
  if (!old) return 'tool';
  return old.test(model.modelId) ? 'tool' : 'native';
}
