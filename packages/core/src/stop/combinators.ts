import type { StopCondition, StopContext } from './stop-condition.js';
import { stopSignal, type StopSignal } from './stop-signal.js';

function verdictOf(condition: StopCondition, context: StopContext): StopSignal | undefined {
  const verdict = condition(context);
  if (verdict === true) {
    return stopSignal(
      'predicate',
      'A stop condition was met.',
      condition.name ? { source: condition.name } : {},
    );
  }
  if (typeof verdict === 'object' && verdict !== null && typeof verdict.reason === 'string') return verdict;
  return undefined;
}

/**
 * Stops when any of the conditions does (the first one's signal). A throwing condition
 * throws out of `or` (and is reported by `stopWhen`).
 *
 * @example
 * stopWhen(or(tokenBudget(50_000), timeBudget(30_000)));
 */
export function or(...conditions: StopCondition[]): StopCondition {
  return function or(context) {
    for (const condition of conditions) {
      const signal = verdictOf(condition, context);
      if (signal) return signal;
    }
    return undefined;
  };
}

/**
 * Stops when every condition does (the last one's signal).
 *
 * @example
 * stopWhen(and(stepCountIs(3), hasToolCall('finish')));
 */
export function and(...conditions: StopCondition[]): StopCondition {
  return function and(context) {
    let last: StopSignal | undefined;
    for (const condition of conditions) {
      last = verdictOf(condition, context);
      if (!last) return undefined;
    }
    return last;
  };
}

/**
 * Stops when the condition does not (reason `predicate`).
 *
 * @example
 * stopWhen(not(hasToolCall('search')));  // stop at the first step without a search
 */
export function not(condition: StopCondition): StopCondition {
  return function not(context) {
    return verdictOf(condition, context)
      ? undefined
      : stopSignal('predicate', `Not (${condition.name || 'condition'}) was met.`, { source: 'not' });
  };
}
