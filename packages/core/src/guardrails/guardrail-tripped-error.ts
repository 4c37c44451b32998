import type { GuardrailKind } from '../events/guardrail-events.js';
import { RxAgentError } from '../errors/rxagent-error.js';

/**
 * A guardrail tripped and the run was asked to fail instead of stopping
 * (`onGuardrailTrip: 'error'`). `guardrail` names it; `reason` and `info` are its verdict's.
 *
 * @example
 * runAgent({ model, prompt, inputGuardrails: [moderation], onGuardrailTrip: 'error' }).subscribe({
 *   error: (e) => GuardrailTrippedError.isInstance(e) && console.warn(e.guardrail, e.reason),
 * });
 */
export class GuardrailTrippedError extends RxAgentError {
  static override readonly kind: string = 'GuardrailTrippedError';
  constructor(
    readonly guardrail: string,
    readonly guardrailKind: GuardrailKind,
    readonly reason: string,
    readonly info?: Record<string, unknown>,
  ) {
    super(
      `The ${guardrailKind} guardrail "${guardrail}" tripped: ${reason} ` +
        "(set onGuardrailTrip: 'stop' to end the run with reason 'guardrail' instead of an error).",
    );
  }
}
