import type { Usage } from '@rxagent/core';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ResponseUsage } from 'openai/resources/responses/responses';

/**
 * Chat Completions usage → `Usage`. `prompt_tokens` already counts cached tokens, which is
 * what `inputTokens` means; `cached_tokens` becomes `cacheReadTokens`.
 *
 * @example
 * mapOpenAIChatUsage({ prompt_tokens: 14, completion_tokens: 6, total_tokens: 20 });
 * // { inputTokens: 14, outputTokens: 6, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 20 }
 */
export function mapOpenAIChatUsage(usage: CompletionUsage): Usage {
  return toUsage(
    usage.prompt_tokens,
    usage.completion_tokens,
    usage.total_tokens,
    usage.prompt_tokens_details?.cached_tokens,
    usage.prompt_tokens_details?.cache_write_tokens,
    usage.completion_tokens_details?.reasoning_tokens,
  );
}

/**
 * Responses API usage (on the terminal event) → `Usage`.
 *
 * @example
 * mapOpenAIResponsesUsage(event.response.usage);
 */
export function mapOpenAIResponsesUsage(usage: ResponseUsage): Usage {
  return toUsage(
    usage.input_tokens,
    usage.output_tokens,
    usage.total_tokens,
    usage.input_tokens_details?.cached_tokens,
    usage.input_tokens_details?.cache_write_tokens,
    usage.output_tokens_details?.reasoning_tokens,
  );
}

function toUsage(
  input: number | undefined,
  output: number | undefined,
  total: number | undefined,
  cacheRead: number | undefined,
  cacheWrite: number | undefined,
  reasoning: number | undefined,
): Usage {
  const inputTokens = input ?? 0;
  const outputTokens = output ?? 0;
  const usage: Usage = {
    inputTokens,
    outputTokens,
    cacheReadTokens: cacheRead ?? 0,
    cacheWriteTokens: cacheWrite ?? 0,
    totalTokens: total ?? inputTokens + outputTokens,
  };
  if (typeof reasoning === 'number') usage.reasoningTokens = reasoning;
  return usage;
}
