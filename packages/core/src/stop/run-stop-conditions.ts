import type { RunAgentConfig } from '../turn/run-config.js';
import type { StopCondition } from './stop-condition.js';
import { costBudget } from './stop-conditions.js';
import { usageBudget } from './usage-budget.js';

/**
 * The stop condition `maxBudgetUsd` stands for: `costBudget(usd)` (reason `token-limit`) whose
 * signal names `maxBudgetUsd` as its source.
 *
 * @example
 * const cap = maxBudgetCondition(0.5);
 */
export function maxBudgetCondition(usd: number): StopCondition {
  const budget = costBudget(usd);
  return usageBudget(function maxBudgetUsd(context) {
    const signal = budget(context);
    return signal && typeof signal === 'object' ? { ...signal, source: 'maxBudgetUsd' } : undefined;
  });
}

/**
 * The stop conditions of a run's config: its `stopWhen` (flattened), then `maxBudgetUsd` as a
 * cost budget.
 *
 * @example
 * const conditions = runStopConditions({ model, stopWhen: stepCountIs(4), maxBudgetUsd: 1 });
 */
export function runStopConditions(config: RunAgentConfig): StopCondition[] {
  const conditions = config.stopWhen === undefined ? [] : [config.stopWhen].flat();
  if (config.maxBudgetUsd !== undefined) conditions.push(maxBudgetCondition(config.maxBudgetUsd));
  return conditions;
}
