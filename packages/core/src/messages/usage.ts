import type { Usage } from './types.js';

/**
 * A usage record with every count at zero.
 *
 * @example
 * const total = addUsage(emptyUsage(), message.usage);
 */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 };
}

/**
 * The sum of two usage records (reasoning tokens summed when either has them; the cost only
 * when both are priced, so a total never hides an unpriced call).
 *
 * @example
 * const total = steps.reduce((sum, s) => addUsage(sum, s.usage), emptyUsage());
 */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
  if (a.reasoningTokens !== undefined || b.reasoningTokens !== undefined) {
    sum.reasoningTokens = (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0);
  }
  // A sum with an unpriced part would be a wrong figure: the cost is kept only when every
  // part is priced (a record with no tokens at all, like emptyUsage(), costs nothing).
  if ((a.costUsd !== undefined || b.costUsd !== undefined) && priced(a) && priced(b)) {
    sum.costUsd = (a.costUsd ?? 0) + (b.costUsd ?? 0);
  }
  return sum;
}

function priced(u: Usage): boolean {
  return u.costUsd !== undefined || (u.inputTokens === 0 && u.outputTokens === 0 && u.totalTokens === 0);
}
