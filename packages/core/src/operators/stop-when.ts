import { from, of } from 'rxjs';
import { PipelineError } from '../errors/pipeline-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { LoopItem, LoopOperator } from '../turn/loop-item.js';
import { evaluateStopCondition } from '../stop/evaluate-stop-condition.js';
import type { StopCondition, StopContext } from '../stop/stop-condition.js';
import { turnOperator } from './turn-operator.js';

/**
 * Evaluates stop predicates after each step's model call and tools, before the next call.
 * Predicates OR together: the first that returns `true` (reason `predicate`) or a
 * `StopSignal` ends the run after this turn. A predicate that throws is reported as a
 * `warning` and counts as "do not stop" (inside `or` / `and` / `not` too). Put it after
 * `llmStep()` (and after `executeTools()`, so the step's calls have their results).
 *
 * @param conditions Predicates (or arrays of them).
 * @return A loop operator.
 *
 * @example
 * runAgent({ model, tools, prompt, pipeline: (t$) => t$.pipe(llmStep(), executeTools(), stopWhen(stepCountIs(5), hasToolCall('finish'))) });
 */
export function stopWhen(...conditions: (StopCondition | readonly StopCondition[])[]): LoopOperator {
  const predicates: StopCondition[] = conditions.flat();
  return turnOperator('stopWhen', (turn) => {
    const step = turn.stepResult();
    if (!step) {
      if (turn.stop) return of(turn); // stopped before its model call (an input guardrail)
      throw new PipelineError(
        "stopWhen() received a turn without the model's message: put stopWhen() after llmStep() and executeTools().",
      );
    }
    if (turn.stop || predicates.length === 0) return from([turn]);
    const warnings: AgentEvent[] = [];
    const context: StopContext = {
      // Built on demand: copying every step for every turn would make long runs quadratic.
      get steps() {
        return [...turn.steps, step];
      },
      step,
      usage: turn.usage,
      elapsedMs: turn.run.scheduler.now() - turn.run.startedAt,
      get messages() {
        return turn.messages;
      },
      warn: (message) => warnings.push({ type: 'warning', message }),
    };
    let next = turn;
    for (const predicate of predicates) {
      const signal = evaluateStopCondition(predicate, context);
      if (signal) {
        next = turn.withStop(signal);
        break;
      }
    }
    const items: LoopItem[] = [...warnings, next];
    return from(items);
  });
}
