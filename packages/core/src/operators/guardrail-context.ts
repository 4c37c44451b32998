import type { GuardrailContext } from '../guardrails/guardrail.js';
import type { Turn } from '../turn/turn.js';

/**
 * What a guardrail sees of the run at `turn`.
 *
 * @example
 * guardrail.check(input, guardrailContext(turn));
 */
export function guardrailContext(turn: Turn): GuardrailContext {
  return {
    runId: turn.run.runId,
    step: turn.step,
    messages: turn.messages,
    signal: turn.run.signal,
    scheduler: turn.run.scheduler,
  };
}
