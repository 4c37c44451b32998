import type { MessageDeltaUsage, Usage as AnthropicUsage } from '@anthropic-ai/sdk/resources/messages';
import type { Usage } from '@rxagent/core';

/**
 * Anthropic's token counts of one response, as last reported (all cumulative).
 *
 * @example
 * const tokens: AnthropicTokenCounts = { input: 25, cacheRead: 1024, cacheWrite: 0, output: 12 };
 */
export interface AnthropicTokenCounts {
  /** `input_tokens`: the prompt tokens that were neither read from nor written to the cache. */
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  /** `output_tokens_details.thinking_tokens`, when sent. */
  reasoning?: number;
}

/**
 * Anthropic's counts as a core `Usage`. Anthropic's `input_tokens` excludes cached tokens;
 * the core counts every prompt token, so the cache reads and writes are added back.
 *
 * @example
 * mapAnthropicUsage({ input: 25, cacheRead: 1024, cacheWrite: 0, output: 12 });
 * // { inputTokens: 1049, outputTokens: 12, cacheReadTokens: 1024, cacheWriteTokens: 0, totalTokens: 1061 }
 */
export function mapAnthropicUsage(tokens: AnthropicTokenCounts): Usage {
  const inputTokens = tokens.input + tokens.cacheRead + tokens.cacheWrite;
  const usage: Usage = {
    inputTokens,
    outputTokens: tokens.output,
    cacheReadTokens: tokens.cacheRead,
    cacheWriteTokens: tokens.cacheWrite,
    totalTokens: inputTokens + tokens.output,
  };
  if (tokens.reasoning !== undefined) usage.reasoningTokens = tokens.reasoning;
  return usage;
}

/**
 * Folds the `usage` of `message_start` or `message_delta` into the counts. Every figure is
 * cumulative, so present ones replace the old value (never added); absent or null ones keep it.
 *
 * @example
 * updateTokenCounts(tokens, { output_tokens: 12 }); // tokens.output === 12
 */
export function updateTokenCounts(
  tokens: AnthropicTokenCounts,
  usage: Partial<AnthropicUsage> | Partial<MessageDeltaUsage> | null | undefined,
): void {
  if (!usage) return;
  if (typeof usage.input_tokens === 'number') tokens.input = usage.input_tokens;
  if (typeof usage.cache_read_input_tokens === 'number') tokens.cacheRead = usage.cache_read_input_tokens;
  if (typeof usage.cache_creation_input_tokens === 'number')
    tokens.cacheWrite = usage.cache_creation_input_tokens;
  if (typeof usage.output_tokens === 'number') tokens.output = usage.output_tokens;
  const thinking = usage.output_tokens_details?.thinking_tokens;
  if (typeof thinking === 'number') tokens.reasoning = thinking;
}
