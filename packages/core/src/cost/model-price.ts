import type { Usage } from '../messages/types.js';
import type { TokenPrices } from '../stop/stop-conditions.js';
import { MODEL_PRICES } from './model-prices.js';

/**
 * A model's prices in US dollars per million tokens, with the long-context tier where the
 * provider prices one (a prompt above `aboveInputTokens` pays the tier's rates on every token
 * of that request, output included). `source` says where the figures come from.
 *
 * @example
 * const price: ModelPrice = { inputPerMillion: 3, outputPerMillion: 15, cacheReadPerMillion: 0.3, cacheWritePerMillion: 3.75 };
 */
export interface ModelPrice extends TokenPrices {
  longContext?: TokenPrices & { aboveInputTokens: number };
  source?: string;
}

/**
 * Prices to add or override, by model id (`'gpt-4o'`) or by provider and model id
 * (`'openai/gpt-4o'`, which wins). Dated snapshot ids find their base id.
 *
 * @example
 * runAgent({ model, prompt, prices: { 'my-finetune': { inputPerMillion: 0.3, outputPerMillion: 1.2 } } });
 */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

// `-2024-08-06` (OpenAI) or `-20250929` (Anthropic) at the end of a snapshot id.
const DATE_SUFFIX = /-(\d{4}-\d{2}-\d{2}|\d{8})$/;

function candidates(modelId: string): string[] {
  const base = modelId.replace(DATE_SUFFIX, '');
  return base === modelId ? [modelId] : [modelId, base];
}

/**
 * The price of a model: from `overrides` first (`provider/model` before `model`), then the
 * built-in table for its provider. `undefined` for a model nobody priced — never a guess.
 *
 * @param provider The model's provider (`'openai'`, `'anthropic'`).
 * @param modelId The model id, as requested or as the provider reported it.
 * @param overrides Prices given by the user.
 * @return The price, or `undefined`.
 *
 * @example
 * modelPrice('anthropic', 'claude-sonnet-4-5-20250929')?.inputPerMillion; // 3
 */
export function modelPrice(
  provider: string,
  modelId: string,
  overrides?: PriceTable,
): ModelPrice | undefined {
  for (const id of candidates(modelId)) {
    const own = overrides?.[`${provider}/${id}`] ?? overrides?.[id];
    if (own) return own;
  }
  const table = Object.prototype.hasOwnProperty.call(MODEL_PRICES, provider)
    ? MODEL_PRICES[provider]
    : undefined;
  if (!table) return undefined;
  for (const id of candidates(modelId)) {
    if (Object.prototype.hasOwnProperty.call(table, id)) return table[id];
  }
  return undefined;
}

/**
 * What one model call cost in US dollars: uncached input, cache reads, cache writes and
 * output each at their price (a missing cache price falls back to the input price), at the
 * long-context rates when the prompt is above the model's threshold.
 *
 * @example
 * usageCost({ inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 1_000_000 }, price);
 */
export function usageCost(usage: Usage, price: ModelPrice): number {
  const long = price.longContext;
  const rates: TokenPrices = long && usage.inputTokens > long.aboveInputTokens ? long : price;
  const uncached = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  return (
    (uncached * rates.inputPerMillion +
      usage.cacheReadTokens * (rates.cacheReadPerMillion ?? rates.inputPerMillion) +
      usage.cacheWriteTokens * (rates.cacheWritePerMillion ?? rates.inputPerMillion) +
      usage.outputTokens * rates.outputPerMillion) /
    1_000_000
  );
}
