import { AgentConfigError } from '../errors/agent-errors.js';
import { describeValue } from '../util/describe-value.js';

/**
 * The accepted range of a numeric option.
 *
 * @example
 * const maxSteps: NumberRule = { integer: true, min: 1, infinity: 'no limit' };
 */
export interface NumberRule {
  /** Finite values must be integers. */
  integer?: boolean;
  /** Smallest accepted value (inclusive unless `exclusiveMin`). */
  min: number;
  exclusiveMin?: boolean;
  /** Largest accepted value (inclusive). */
  max?: number;
  /** When set, `Infinity` is accepted and means this (e.g. `'no limit'`). */
  infinity?: string;
  /** Said after the range, e.g. `'0 never disables a tool'`. */
  note?: string;
}

/**
 * The range a rule accepts, in words.
 *
 * @example
 * describeRule({ integer: true, min: 1, infinity: 'no limit' }); // 'an integer >= 1, or Infinity for no limit'
 */
export function describeRule(rule: NumberRule): string {
  const kind = rule.integer ? 'an integer' : 'a number';
  const range =
    rule.max !== undefined
      ? `${kind} from ${rule.min} to ${rule.max}`
      : `${kind} ${rule.exclusiveMin ? '>' : '>='} ${rule.min}`;
  const infinity = rule.infinity ? `, or Infinity for ${rule.infinity}` : '';
  return `${range}${infinity}${rule.note ? ` (${rule.note})` : ''}`;
}

/**
 * The error for an option whose value is not accepted: names the key, the value received
 * and what is accepted.
 *
 * @example
 * throw invalidOption('steeringMode', 'later', "'interrupt' or 'after-turn'");
 */
export function invalidOption(key: string, value: unknown, expected: string): AgentConfigError {
  return new AgentConfigError(
    `Invalid option ${key}: received ${describeValue(value)}; expected ${expected}.`,
  );
}

function accepts(value: number, rule: NumberRule): boolean {
  if (Number.isNaN(value)) return false;
  if (value === Infinity) return rule.infinity !== undefined;
  if (!Number.isFinite(value)) return false;
  if (rule.integer && !Number.isInteger(value)) return false;
  if (rule.exclusiveMin ? value <= rule.min : value < rule.min) return false;
  return rule.max === undefined || value <= rule.max;
}

/**
 * Checks an optional numeric option: `undefined` passes; anything else must be a number
 * (not NaN, not a numeric string) within the rule, or an `AgentConfigError` is thrown.
 *
 * @example
 * checkNumber('maxSteps', config.maxSteps, { integer: true, min: 1, infinity: 'no limit' });
 */
export function checkNumber(key: string, value: unknown, rule: NumberRule): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !accepts(value, rule)) throw invalidOption(key, value, describeRule(rule));
}
