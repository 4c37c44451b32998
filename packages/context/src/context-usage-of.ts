import type { ContextUsage } from '@rxagent/core/context';

/**
 * How full the context is when a view of `tokens` is sent, out of a transcript of
 * `transcriptTokens`, `reported` of them counted by the provider at the last answer.
 *
 * @example
 * contextUsageOf({ contextWindow: 8_000, reserveTokens: 1_000 }, 6_000, 9_000, 5_000).percent; // 75
 */
export function contextUsageOf(
  window: { contextWindow: number; reserveTokens: number },
  tokens: number,
  transcriptTokens: number,
  reported: number,
): ContextUsage {
  const usageTokens = Math.min(reported, tokens);
  return {
    contextWindow: window.contextWindow,
    tokens,
    reserveTokens: window.reserveTokens,
    percent: Math.round((tokens / window.contextWindow) * 10_000) / 100,
    usageTokens,
    estimatedTokens: tokens - usageTokens,
    transcriptTokens,
    droppedTokens: Math.max(0, transcriptTokens - tokens),
  };
}
