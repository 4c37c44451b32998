import { evaluateStopCondition, judgeStopCondition } from './evaluate-stop-condition.js';
import type { StopCondition } from './stop-condition.js';
import { stopSignal, type StopSignal } from '../events/stop-signal.js';
import { isUsageBudget, usageBudget } from './usage-budget.js';

/**
 * Stops when any of the conditions does, with the signal of the first one that does. A
 * condition that throws is reported through `context.warn` and counts as not met; the
 * others are still evaluated.
 *
 * @example
 * stopWhen(or(tokenBudget(50_000), timeBudget(30_000)));
 */
export function or(...conditions: StopCondition[]): StopCondition {
  const combined: StopCondition = function or(context) {
    for (const condition of conditions) {
      const signal = evaluateStopCondition(condition, context);
      if (signal) return signal;
    }
    return undefined;
  };
  return conditions.length > 0 && conditions.every(isUsageBudget) ? usageBudget(combined) : combined;
}

/**
 * Stops when every condition does, with the most specific signal: one whose reason is not the
 * generic `predicate` (e.g. `steps-limit`, `token-limit`, `time-limit`) wins, and among equally
 * specific ones the first condition's. A condition that throws is reported through
 * `context.warn` and counts as not met.
 *
 * @example
 * stopWhen(and(stepCountIs(3), hasToolCall('finish')));  // reason steps-limit
 */
export function and(...conditions: StopCondition[]): StopCondition {
  const combined: StopCondition = function and(context) {
    let chosen: StopSignal | undefined;
    for (const condition of conditions) {
      const signal = evaluateStopCondition(condition, context);
      if (!signal) return undefined;
      if (!chosen || (chosen.reason === 'predicate' && signal.reason !== 'predicate')) chosen = signal;
    }
    return chosen;
  };
  return conditions.length > 0 && conditions.every(isUsageBudget) ? usageBudget(combined) : combined;
}

/**
 * Stops when the condition does not (reason `predicate`). A condition that throws is reported
 * through `context.warn` and is neither met nor not met: `not` of it does not stop.
 *
 * @example
 * stopWhen(not(hasToolCall('search')));  // stop at the first step without a search
 */
export function not(condition: StopCondition): StopCondition {
  return function not(context) {
    return judgeStopCondition(condition, context).kind === 'not-met'
      ? stopSignal('predicate', `Not (${condition.name || 'condition'}) was met.`, { source: 'not' })
      : undefined;
  };
}
