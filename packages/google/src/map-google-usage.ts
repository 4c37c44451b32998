import type { GenerateContentResponseUsageMetadata } from '@google/genai';
import type { Usage } from '@rxagent/core';

/**
 * Gemini's `usageMetadata` as a core `Usage`. The prompt count already includes cached
 * tokens (`cachedContentTokenCount`, the cache reads); tokens a server tool added to the
 * prompt (`toolUsePromptTokenCount`) are input too. Gemini counts thoughts apart from the
 * candidates; rxagent's `outputTokens` includes them, with `reasoningTokens` saying how many.
 *
 * @example
 * mapGoogleUsage({ promptTokenCount: 9, candidatesTokenCount: 23, thoughtsTokenCount: 185, cachedContentTokenCount: 4 });
 * // { inputTokens: 9, outputTokens: 208, cacheReadTokens: 4, cacheWriteTokens: 0, totalTokens: 217, reasoningTokens: 185 }
 */
export function mapGoogleUsage(usage: GenerateContentResponseUsageMetadata): Usage {
  const inputTokens = (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0);
  const thoughts = usage.thoughtsTokenCount;
  const outputTokens = (usage.candidatesTokenCount ?? 0) + (thoughts ?? 0);
  const mapped: Usage = {
    inputTokens,
    outputTokens,
    cacheReadTokens: usage.cachedContentTokenCount ?? 0,
    cacheWriteTokens: 0,
    totalTokens: inputTokens + outputTokens,
  };
  if (thoughts !== undefined) mapped.reasoningTokens = thoughts;
  return mapped;
}
