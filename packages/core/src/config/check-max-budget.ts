import { AgentConfigError } from '../errors/agent-errors.js';
import { modelPrice, type PriceTable } from '../cost/model-price.js';
import { checkNumber } from './check-number.js';

/**
 * Checks a run's `maxBudgetUsd`: a number above 0, and a run whose model has a price (built in,
 * or in the run's `prices`) — without one the run has no cost, and the cap could never stop it.
 *
 * @example
 * checkMaxBudget(config.maxBudgetUsd, config.model, config.prices);
 */
export function checkMaxBudget(
  value: unknown,
  model: { provider?: unknown; modelId?: unknown } | undefined,
  prices: PriceTable | undefined,
): void {
  if (value === undefined) return;
  checkNumber('maxBudgetUsd', value, { min: 0, exclusiveMin: true, note: 'US dollars' });
  const provider = typeof model?.provider === 'string' ? model.provider : '';
  const modelId = typeof model?.modelId === 'string' ? model.modelId : '';
  if (modelPrice(provider, modelId, prices)) return;
  throw new AgentConfigError(
    `maxBudgetUsd needs the price of the run's model ${provider}/${modelId}, which has none: without it the ` +
      `run has no cost and the cap could never stop it. Give it with prices: { '${modelId}': { inputPerMillion: …, ` +
      'outputPerMillion: … } }, or cap tokens with stopWhen: tokenBudget(n).',
  );
}
