import { of } from 'rxjs';
import type { LoopOperator } from '../turn/loop-item.js';
import type { StopGuard } from '../stop/stop-condition.js';
import { turnOperator } from './turn-operator.js';

/**
 * Consults `guard` when the model would stop by itself (no tool calls, nothing queued, no
 * follow-up): `{ inject: 'text' }` adds a user message and goes on, `{ escalate: true }`
 * fails the run with `StopGuardEscalationError`, anything else lets it stop. A throwing
 * guard is reported as a `warning` and allows the stop.
 *
 * @param guard The stop guard.
 * @return A loop operator.
 *
 * @example
 * const mustFinish = guardStop(({ step }) => (step.toolCalls.some((c) => c.name === 'finish') ? undefined : { inject: 'Call finish with your answer.' }));
 * runAgent({ model, tools, prompt, pipeline: (t$) => t$.pipe(llmStep(), executeTools(), mustFinish) });
 */
export function guardStop(guard: StopGuard): LoopOperator {
  return turnOperator('guardStop', (turn) => of(turn.withGuard(guard)));
}
