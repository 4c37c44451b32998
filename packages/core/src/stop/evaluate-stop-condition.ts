import type { StopCondition, StopContext } from './stop-condition.js';
import { stopSignal, type StopSignal } from '../events/stop-signal.js';

/**
 * What one stop condition said: `met` (with its signal), `not-met`, or `threw` (already
 * reported through `context.warn`). A throw is neither met nor not met, which matters to `not`.
 *
 * @example
 * const verdict: StopVerdict = judgeStopCondition(stepCountIs(3), context);
 * if (verdict.kind === 'met') console.log(verdict.signal.reason);
 */
export type StopVerdict = { kind: 'met'; signal: StopSignal } | { kind: 'not-met' } | { kind: 'threw' };

/**
 * Calls a stop condition and classifies its answer: `true` is met with a generic `predicate`
 * signal, a `StopSignal` is met with itself, anything else is not met, and a throw is reported
 * through `context.warn` and classified as `threw`.
 *
 * @example
 * const verdict = judgeStopCondition(hasToolCall('finish'), context);
 * const stops = verdict.kind === 'met';
 */
export function judgeStopCondition(condition: StopCondition, context: StopContext): StopVerdict {
  let verdict: ReturnType<StopCondition>;
  try {
    verdict = condition(context);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    context.warn?.(`Stop predicate "${condition.name || 'anonymous'}" threw and was ignored: ${message}`);
    return { kind: 'threw' };
  }
  if (verdict === true) {
    return {
      kind: 'met',
      signal: stopSignal(
        'predicate',
        'A stop condition was met.',
        condition.name ? { source: condition.name } : {},
      ),
    };
  }
  if (isStopSignal(verdict)) return { kind: 'met', signal: verdict };
  return { kind: 'not-met' };
}

/**
 * Evaluates one stop condition: the `StopSignal` to stop with, or `undefined` to go on.
 * `true` becomes `stopSignal('predicate', 'A stop condition was met.', { source: name })`, a
 * `StopSignal` is returned as is, anything else is `undefined`. A condition that throws is
 * reported through `context.warn` and counts as "do not stop".
 *
 * @example
 * const signal = evaluateStopCondition(or(tokenBudget(50_000), hasToolCall('finish')), {
 *   ...context,
 *   warn: (message) => warnings.push(message),
 * });
 * if (signal) turn.stop = signal;
 */
export function evaluateStopCondition(
  condition: StopCondition,
  context: StopContext,
): StopSignal | undefined {
  const verdict = judgeStopCondition(condition, context);
  return verdict.kind === 'met' ? verdict.signal : undefined;
}

function isStopSignal(value: unknown): value is StopSignal {
  return (
    typeof value === 'object' && value !== null && typeof (value as { reason?: unknown }).reason === 'string'
  );
}
