import { checkOneOf } from '../config/check-shape.js';
import { checkGuardrailList } from './check-guardrail-list.js';

/**
 * Checks the guardrail keys of a run's config (`inputGuardrails`, `outputGuardrails`,
 * `toolGuardrails`, `onGuardrailTrip`), throwing `AgentConfigError` naming the key.
 *
 * @example
 * checkGuardrailConfig({ inputGuardrails: [{ name: 'moderation', check }] });
 */
export function checkGuardrailConfig(config: Record<string, unknown>): void {
  checkGuardrailList('inputGuardrails', config.inputGuardrails, ['check']);
  checkGuardrailList('outputGuardrails', config.outputGuardrails, ['check']);
  checkGuardrailList('toolGuardrails', config.toolGuardrails, ['before', 'after'], false);
  checkOneOf('onGuardrailTrip', config.onGuardrailTrip, ['stop', 'error']);
}
