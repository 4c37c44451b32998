import type { FinishReason, Usage } from '../messages/types.js';
import type { StopCondition } from './stop-condition.js';
import { stopSignal } from '../events/stop-signal.js';
import { usageBudget } from './usage-budget.js';

/**
 * Stops once `count` steps (model calls) are done, with reason `steps-limit`.
 *
 * @example
 * stopWhen(stepCountIs(5));
 */
export function stepCountIs(count: number): StopCondition {
  return function stepCountIs({ step }) {
    return step.step >= count
      ? stopSignal('steps-limit', `Step limit reached: ${step.step}/${count}`, {
          context: { steps: step.step, maxSteps: count },
          source: 'stepCountIs',
        })
      : undefined;
  };
}

/**
 * Stops after a step in which the model called one of the named tools (reason `predicate`).
 *
 * @example
 * stopWhen(hasToolCall('finish'));
 */
export function hasToolCall(...names: string[]): StopCondition {
  return function hasToolCall({ step }) {
    const call = step.toolCalls.find((c) => names.includes(c.name));
    return call
      ? stopSignal('predicate', `The model called "${call.name}".`, {
          context: { toolName: call.name },
          source: 'hasToolCall',
        })
      : undefined;
  };
}

/**
 * Stops once the run has used `maxTokens` tokens in total (reason `token-limit`). By default
 * counts `totalTokens`; pass `'input'` or `'output'` to count one side. Given in the run's
 * `stopWhen`, it is also checked while a step's calls run, as sub-runs spend: a sub-run that
 * spends past it is stopped mid-run (see the core README, "Budgets that nest").
 *
 * @example
 * stopWhen(tokenBudget(100_000));
 */
export function tokenBudget(maxTokens: number, count: 'total' | 'input' | 'output' = 'total'): StopCondition {
  return usageBudget(function tokenBudget({ usage }) {
    const used =
      count === 'input' ? usage.inputTokens : count === 'output' ? usage.outputTokens : usage.totalTokens;
    return used >= maxTokens
      ? stopSignal('token-limit', `Token limit reached: ${used}/${maxTokens}`, {
          context: { used, maxTokens, count },
          source: 'tokenBudget',
        })
      : undefined;
  });
}

/**
 * Prices in US dollars per million tokens.
 *
 * @example
 * const prices: TokenPrices = { inputPerMillion: 3, outputPerMillion: 15, cacheReadPerMillion: 0.3 };
 */
export interface TokenPrices {
  inputPerMillion: number;
  outputPerMillion: number;
  cacheReadPerMillion?: number;
  cacheWritePerMillion?: number;
}

/**
 * Stops once the run has cost `maxUsd` (reason `token-limit`). Without `prices` it reads the
 * run's `usage.costUsd`, which the loop fills from the built-in price table (and the run's
 * `prices` option): nothing to pass for OpenAI and Anthropic models. A run with an unpriced
 * model has no total cost (the loop warns once), so the budget cannot stop it. With `prices`,
 * the cost is computed from the tokens when no `costUsd` is known (cached input at its own price).
 *
 * @example
 * stopWhen(costBudget(0.5));
 * stopWhen(costBudget(0.5, { inputPerMillion: 3, outputPerMillion: 15, cacheReadPerMillion: 0.3 }));
 */
export function costBudget(maxUsd: number, prices?: TokenPrices): StopCondition {
  return usageBudget(function costBudget({ usage }) {
    const cost = usage.costUsd ?? (prices ? computedCost(usage, prices) : undefined);
    return cost !== undefined && cost >= maxUsd
      ? stopSignal('token-limit', `Cost limit reached: $${cost.toFixed(4)}/$${maxUsd}`, {
          context: { costUsd: cost, maxUsd },
          source: 'costBudget',
        })
      : undefined;
  });
}

function computedCost(usage: Usage, prices: TokenPrices): number {
  const uncached = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  return (
    (uncached * prices.inputPerMillion +
      usage.outputTokens * prices.outputPerMillion +
      usage.cacheReadTokens * (prices.cacheReadPerMillion ?? prices.inputPerMillion) +
      usage.cacheWriteTokens * (prices.cacheWritePerMillion ?? prices.inputPerMillion)) /
    1_000_000
  );
}

/**
 * Stops once `maxMs` have passed since the run started, on the run's scheduler (reason
 * `time-limit`). Checked between steps: a running step is never cut.
 *
 * @example
 * stopWhen(timeBudget(60_000));
 */
export function timeBudget(maxMs: number): StopCondition {
  return function timeBudget({ elapsedMs }) {
    return elapsedMs >= maxMs
      ? stopSignal('time-limit', `Time limit reached: ${elapsedMs}/${maxMs} ms`, {
          context: { elapsedMs, maxMs },
          source: 'timeBudget',
        })
      : undefined;
  };
}

/**
 * Stops after a step that finished for one of the given reasons (reason `finish-reason`).
 *
 * @example
 * stopWhen(finishReasonIs('content-filter', 'length'));
 */
export function finishReasonIs(...reasons: FinishReason[]): StopCondition {
  return function finishReasonIs({ step }) {
    return reasons.includes(step.finishReason)
      ? stopSignal('finish-reason', `The model finished with "${step.finishReason}".`, {
          context: { finishReason: step.finishReason },
          source: 'finishReasonIs',
        })
      : undefined;
  };
}
