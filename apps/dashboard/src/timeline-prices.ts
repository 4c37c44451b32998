import type { TokenPrices, Usage } from '@rxagent/core';

/**
 * Prices used for the cost of a step when the provider reports none (`gpt-4o-mini` list
 * prices, US dollars per million tokens): scripted runs, unknown models.
 *
 * @example
 * new RunTimeline({ prices: DEFAULT_TIMELINE_PRICES });
 */
export const DEFAULT_TIMELINE_PRICES: TokenPrices = {
  inputPerMillion: 0.15,
  outputPerMillion: 0.6,
  cacheReadPerMillion: 0.075,
};

/**
 * The model whose prices `DEFAULT_TIMELINE_PRICES` are: the page says a cost it computed is
 * "priced as" it.
 *
 * @example
 * `${usd(view.totals.costUsd)} (priced as ${DEFAULT_PRICED_AS})`;
 */
export const DEFAULT_PRICED_AS = 'gpt-4o-mini';

/**
 * A step's cost: the provider's `costUsd` when reported, else from `prices`.
 *
 * @example
 * costOf(message.usage, DEFAULT_TIMELINE_PRICES); // 0.000042
 */
export function costOf(usage: Usage, prices: TokenPrices): number {
  if (usage.costUsd !== undefined) return usage.costUsd;
  const uncached = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  return (
    (uncached * prices.inputPerMillion +
      usage.outputTokens * prices.outputPerMillion +
      usage.cacheReadTokens * (prices.cacheReadPerMillion ?? prices.inputPerMillion) +
      usage.cacheWriteTokens * (prices.cacheWritePerMillion ?? prices.inputPerMillion)) /
    1_000_000
  );
}
