import type { WarningEvent } from '../events/agent-event.js';
import type { AssistantMessage } from '../messages/types.js';
import { MODEL_PRICES } from './model-prices.js';
import { modelPrice, usageCost, type PriceTable } from './model-price.js';

/**
 * The assistant message with `usage.costUsd` filled from the run's `prices` and the built-in
 * table (a cost the provider reported is kept). A model without a price gets no cost — never
 * a guess — and a `warning` unless `warned` already names it (`unpriced` is the key to add):
 * when its provider has a built-in table or the run was given `prices`. Other providers (test
 * models, local servers) stay silent.
 *
 * @example
 * const { message, warning, unpriced } = priceMessage(config.prices, finished, model.modelId, []);
 */
export function priceMessage(
  overrides: PriceTable | undefined,
  message: AssistantMessage,
  requestedModel: string,
  warned: readonly string[],
): { message: AssistantMessage; warning?: WarningEvent; unpriced?: string } {
  const usage = message.usage;
  if (!usage || usage.costUsd !== undefined) return { message };
  const price =
    modelPrice(message.provider, message.model, overrides) ??
    (requestedModel !== message.model ? modelPrice(message.provider, requestedModel, overrides) : undefined);
  if (price) return { message: { ...message, usage: { ...usage, costUsd: usageCost(usage, price) } } };
  const known = Object.prototype.hasOwnProperty.call(MODEL_PRICES, message.provider);
  if (!known && !overrides) return { message };
  const key = `${message.provider}/${message.model}`;
  if (warned.includes(key)) return { message };
  return {
    message,
    unpriced: key,
    warning: {
      type: 'warning',
      message:
        `No price for ${message.provider} model "${message.model}": usage.costUsd is left out ` +
        "(and costBudget cannot count it). Add it with the run's prices option, e.g. " +
        `prices: { '${message.model}': { inputPerMillion: …, outputPerMillion: … } }.`,
    },
  };
}
