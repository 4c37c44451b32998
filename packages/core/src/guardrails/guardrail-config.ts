import type { InputGuardrail, OutputGuardrail, ToolGuardrail } from './guardrail.js';

/**
 * What a tripped guardrail does: end the run with `agent-end { reason: 'guardrail' }`
 * (`'stop'`, the default) or fail it with `GuardrailTrippedError` (`'error'`).
 *
 * @example
 * const onTrip: GuardrailTripMode = 'error';
 */
export type GuardrailTripMode = 'stop' | 'error';

/**
 * The guardrail keys of a run's config (also `Agent` config keys).
 *
 * @example
 * const config: GuardrailConfig = { inputGuardrails: [moderation], toolGuardrails: [redactPii], onGuardrailTrip: 'stop' };
 */
export interface GuardrailConfig {
  /** Checked on the run's input, before (or with `parallel`, while) the first model call. */
  inputGuardrails?: readonly InputGuardrail[];
  /** Checked on each final answer (a model message without tool calls). */
  outputGuardrails?: readonly OutputGuardrail[];
  /** Checked around every tool call (also read by a custom pipeline's `executeTools()`). */
  toolGuardrails?: readonly ToolGuardrail[];
  /** Default `'stop'`. */
  onGuardrailTrip?: GuardrailTripMode;
}
