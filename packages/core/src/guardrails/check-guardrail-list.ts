import { checkNumber } from '../config/check-number.js';
import { OPTION_RULES } from '../config/option-rules.js';
import { AgentConfigError } from '../errors/agent-errors.js';

/**
 * Checks a list of guardrails given to an operator or a config key: an array of objects with
 * a non-empty `name` and the functions `fns` names (at least one of them), names unique.
 *
 * @example
 * checkGuardrailList('inputGuardrails', guardrails, ['check']);
 */
export function checkGuardrailList(
  key: string,
  value: unknown,
  fns: readonly string[],
  needAll = true,
): void {
  if (value === undefined) return;
  const expected = `an array of guardrails ({ name, ${fns.join(needAll ? ', ' : ' and/or ')} })`;
  if (!Array.isArray(value)) {
    throw new AgentConfigError(`Invalid option ${key}: received ${typeof value}; expected ${expected}.`);
  }
  const names = new Set<string>();
  value.forEach((g: unknown, i) => {
    const item = (typeof g === 'object' && g !== null ? g : {}) as Record<string, unknown>;
    const name = item.name;
    if (typeof name !== 'string' || name.length === 0) {
      throw new AgentConfigError(`Invalid option ${key}[${i}]: a guardrail needs a non-empty string name.`);
    }
    const present = fns.filter((f) => typeof item[f] === 'function');
    if (needAll ? present.length !== fns.length : present.length === 0) {
      throw new AgentConfigError(
        `Invalid option ${key}[${i}] (guardrail "${name.slice(0, 64)}"): expected ${expected}.`,
      );
    }
    checkNumber(`${key}[${i}].maxRetries`, item.maxRetries, OPTION_RULES.maxRetries);
    if (names.has(name)) {
      throw new AgentConfigError(
        `Invalid option ${key}: two guardrails are named "${name.slice(0, 64)}"; names identify them in events and stop signals.`,
      );
    }
    names.add(name);
  });
}
