import type { LoopOperator } from '../loop/loop-event.js';
import { stepResultOf } from '../loop/step-result.js';
import type { StopCondition, StopContext } from '../stop/stop-condition.js';
import { stopSignal, type StopSignal } from '../stop/stop-signal.js';
import { turnOperator } from './turn-operator.js';

/**
 * Evaluates stop predicates after each step's model call and tools, before the next call.
 * Predicates OR together: the first that returns `true` (reason `predicate`) or a
 * `StopSignal` ends the run after this turn. A predicate that throws is reported as a
 * `warning` and counts as "do not stop".
 *
 * @param conditions Predicates (or arrays of them).
 * @return A loop operator.
 *
 * @example
 * runAgent({ model, tools, prompt, pipeline: (t$) => t$.pipe(llmStep(), executeTools(), stopWhen(stepCountIs(5), hasToolCall('finish'))) });
 */
export function stopWhen(...conditions: (StopCondition | readonly StopCondition[])[]): LoopOperator {
  const predicates: StopCondition[] = conditions.flat();
  return turnOperator((turn, io) => {
    if (turn.stop || predicates.length === 0) return io.done();
    const run = turn.run;
    const step = stepResultOf(turn);
    const context: StopContext = {
      // Built on demand: copying every step for every turn would make long runs quadratic.
      get steps() {
        return [...run.steps, step];
      },
      step,
      // The loop has already counted this step's message into run.usage.
      usage: run.usage,
      elapsedMs: run.scheduler.now() - run.startedAt,
      messages: run.messages,
    };
    for (const predicate of predicates) {
      let verdict: ReturnType<StopCondition>;
      try {
        verdict = predicate(context);
      } catch (error) {
        const name = predicate.name || 'anonymous';
        io.emit({
          type: 'warning',
          message: `Stop predicate "${name}" threw and was ignored: ${error instanceof Error ? error.message : String(error)}`,
        });
        continue;
      }
      const signal = toSignal(verdict, predicate);
      if (signal) {
        turn.stop = signal;
        break;
      }
    }
    io.done();
  });
}

function toSignal(verdict: ReturnType<StopCondition>, predicate: StopCondition): StopSignal | undefined {
  if (verdict === true) {
    return stopSignal(
      'predicate',
      'A stop condition was met.',
      predicate.name ? { source: predicate.name } : {},
    );
  }
  if (typeof verdict === 'object' && verdict !== null && typeof verdict.reason === 'string') return verdict;
  return undefined;
}
