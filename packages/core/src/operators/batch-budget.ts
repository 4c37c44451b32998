import { defer, of, Subject, type Observable } from 'rxjs';
import { addUsage } from '../messages/usage.js';
import type { Usage } from '../messages/types.js';
import { evaluateStopCondition } from '../stop/evaluate-stop-condition.js';
import type { StopContext } from '../stop/stop-condition.js';
import type { Turn } from '../turn/turn.js';
import type { BatchState } from './finish-batch.js';

/**
 * Result text of calls not started because the run's budget was spent while the batch ran.
 *
 * @example
 * expect(contentText(toolResult)).toBe(SKIPPED_FOR_BUDGET_TEXT);
 */
export const SKIPPED_FOR_BUDGET_TEXT = "Skipped because the run's budget was spent.";
/**
 * Result text of a call cut off because the run's budget was spent while it ran (its sub-runs
 * were stopped with it).
 *
 * @example
 * expect(contentText(toolResult)).toBe(CANCELLED_FOR_BUDGET_TEXT);
 */
export const CANCELLED_FOR_BUDGET_TEXT = "Tool call was cancelled: the run's budget was spent.";

/** What the run has spent so far in this batch: the turn's usage, its sub-runs', its results'. */
function spentSoFar(turn: Turn, batch: BatchState): Usage {
  let usage = batch.subrunUsage ? addUsage(turn.usage, batch.subrunUsage) : turn.usage;
  for (const outcome of batch.outcomes) {
    const spent = outcome?.result.usage;
    if (spent) usage = addUsage(usage, spent);
  }
  return usage;
}

/**
 * The run's budgets (`run.settings.budgets`) watched while a batch of calls runs: `check()` after
 * each spending (a sub-run's event, a result with usage) evaluates them on what the run spent so
 * far; the first one that says stop is kept on the batch (`budgetStop`, ending the run after the
 * batch with its reason), the calls not started are skipped, and `stopped$` emits, which cuts the
 * running ones (their signals aborted, their sub-runs unsubscribed). Undefined for a run without
 * budgets.
 *
 * @example
 * const budget = watchBudgets(turn, batch);
 * budget?.check();
 */
export function watchBudgets(
  turn: Turn,
  batch: BatchState,
): { check(): void; readonly stopped$: Observable<unknown> } | undefined {
  const budgets = turn.run.settings.budgets;
  if (budgets.length === 0) return undefined;
  const over$ = new Subject<void>();
  const step = turn.stepResult();
  return {
    // Late subscribers (a call adopted after the stop) see it at once.
    stopped$: defer(() => (batch.budgetStop ? of(undefined) : over$)),
    check(): void {
      if (batch.budgetStop || !step) return;
      const usage = spentSoFar(turn, batch);
      const context: StopContext = {
        get steps() {
          return [...turn.steps, step];
        },
        step,
        usage,
        elapsedMs: turn.run.scheduler.now() - turn.run.startedAt,
        get messages() {
          return turn.messages;
        },
        // A throwing budget is reported by stopWhen after the step.
        warn: () => undefined,
      };
      for (const budget of budgets) {
        const signal = evaluateStopCondition(budget, context);
        if (!signal) continue;
        batch.budgetStop = signal;
        batch.skipText ??= SKIPPED_FOR_BUDGET_TEXT;
        over$.next();
        return;
      }
    },
  };
}
