import type { StopCondition } from './stop-condition.js';

/** Marks a stop condition that reads only the run's usage (a token or cost budget). */
const USAGE_BUDGET = Symbol.for('rxagent.usageBudget');

/**
 * Marks `condition` as a budget: it reads only `usage`, and once it says stop it keeps saying
 * so as the run spends more. The tool batch evaluates budgets while its calls run, each time a
 * sub-run or a tool spends (see `tokenBudget`, `costBudget`): a budget can stop a run in the
 * middle of a call, not only between steps.
 *
 * @example
 * return usageBudget(function tokenBudget({ usage }) { … });
 */
export function usageBudget<C extends StopCondition>(condition: C): C {
  Object.defineProperty(condition, USAGE_BUDGET, { value: true });
  return condition;
}

/**
 * True for a stop condition marked with `usageBudget` (`tokenBudget`, `costBudget`, `or` / `and`
 * of budgets only).
 *
 * @example
 * const budgets = conditions.filter(isUsageBudget);
 */
export function isUsageBudget(condition: unknown): condition is StopCondition {
  return (
    typeof condition === 'function' && (condition as { [USAGE_BUDGET]?: unknown })[USAGE_BUDGET] === true
  );
}
