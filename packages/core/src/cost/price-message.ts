import type { WarningEvent } from '../events/agent-event.js';
import type { RunFacts } from '../loop/run-facts.js';
import type { AssistantMessage } from '../messages/types.js';
import { MODEL_PRICES } from './model-prices.js';
import { modelPrice, usageCost } from './model-price.js';

// Models already reported as unpriced, per run: one warning each, however many calls.
const reported = new WeakMap<RunFacts, Set<string>>();

/**
 * The assistant message with `usage.costUsd` filled from the run's `prices` and the built-in
 * table (a cost the provider reported is kept). A model without a price gets no cost — never
 * a guess — and, the first time in a run, a `warning`: when its provider has a built-in table
 * or the run was given `prices`. Other providers (test models, local servers) stay silent.
 *
 * @example
 * const { message, warning } = priceMessage(turn.run, finished, model.modelId);
 */
export function priceMessage(
  run: RunFacts,
  message: AssistantMessage,
  requestedModel: string,
): { message: AssistantMessage; warning?: WarningEvent } {
  const usage = message.usage;
  if (!usage || usage.costUsd !== undefined) return { message };
  const overrides = run.config.prices;
  const price =
    modelPrice(message.provider, message.model, overrides) ??
    (requestedModel !== message.model ? modelPrice(message.provider, requestedModel, overrides) : undefined);
  if (price) return { message: { ...message, usage: { ...usage, costUsd: usageCost(usage, price) } } };
  const known = Object.prototype.hasOwnProperty.call(MODEL_PRICES, message.provider);
  if (!known && !overrides) return { message };
  const key = `${message.provider}/${message.model}`;
  let seen = reported.get(run);
  if (!seen) reported.set(run, (seen = new Set()));
  if (seen.has(key)) return { message };
  seen.add(key);
  return {
    message,
    warning: {
      type: 'warning',
      message:
        `No price for ${message.provider} model "${message.model}": usage.costUsd is left out ` +
        "(and costBudget cannot count it). Add it with the run's prices option, e.g. " +
        `prices: { '${message.model}': { inputPerMillion: …, outputPerMillion: … } }.`,
    },
  };
}
