import { checkNumber, invalidOption } from '../config/check-number.js';

const PRICE = { min: 0 } as const;
const FIELDS = [
  'inputPerMillion',
  'outputPerMillion',
  'cacheReadPerMillion',
  'cacheWritePerMillion',
] as const;

function checkRates(key: string, value: unknown, required: boolean): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidOption(key, value, 'an object like { inputPerMillion: 3, outputPerMillion: 15 }');
  }
  const rates = value as Record<string, unknown>;
  for (const field of FIELDS) {
    const given = rates[field];
    if (given === undefined && required && (field === 'inputPerMillion' || field === 'outputPerMillion')) {
      throw invalidOption(
        `${key}.${field}`,
        given,
        'a price in US dollars per million tokens (a number >= 0)',
      );
    }
    checkNumber(`${key}.${field}`, given, PRICE);
  }
}

/**
 * Checks the run's `prices` option: an object of model ids to prices, each with
 * `inputPerMillion` and `outputPerMillion` (numbers >= 0), optional cache prices and an
 * optional `longContext` tier with its `aboveInputTokens`. A wrong value is an
 * `AgentConfigError` naming the model and the field, before any model call.
 *
 * @example
 * checkPrices({ 'my-model': { inputPerMillion: 1, outputPerMillion: 2 } });
 */
export function checkPrices(prices: unknown): void {
  if (prices === undefined) return;
  if (typeof prices !== 'object' || prices === null || Array.isArray(prices)) {
    throw invalidOption(
      'prices',
      prices,
      "an object of model ids to prices, e.g. { 'my-model': { inputPerMillion: 1, outputPerMillion: 2 } }",
    );
  }
  for (const [id, price] of Object.entries(prices)) {
    const key = `prices[${JSON.stringify(id)}]`;
    checkRates(key, price, true);
    const long = (price as { longContext?: unknown }).longContext;
    if (long !== undefined) {
      checkRates(`${key}.longContext`, long, true);
      checkNumber(
        `${key}.longContext.aboveInputTokens`,
        (long as { aboveInputTokens?: unknown }).aboveInputTokens ?? NaN,
        {
          integer: true,
          min: 0,
        },
      );
    }
  }
}
