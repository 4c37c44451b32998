import { invalidOption } from './check-number.js';

/**
 * Checks a value that must be a function (callers skip options left undefined).
 *
 * @example
 * if (config.random !== undefined) checkFunction('random', config.random);
 */
export function checkFunction(key: string, value: unknown): void {
  if (typeof value !== 'function') throw invalidOption(key, value, 'a function');
}

/**
 * Checks an optional option that must be an array; `checkItem` (if given) checks each item
 * under the key `key[i]`.
 *
 * @example
 * checkArray('middlewares', config.middlewares, 'an array of functions', checkFunction);
 */
export function checkArray(
  key: string,
  value: unknown,
  expected: string,
  checkItem?: (key: string, item: unknown) => void,
): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) throw invalidOption(key, value, expected);
  if (checkItem) value.forEach((item: unknown, i) => checkItem(`${key}[${i}]`, item));
}

/**
 * Checks a value that must be a string (used for array items).
 *
 * @example
 * checkArray('approvalRequired', config.approvalRequired, 'an array of tool names', checkString);
 */
export function checkString(key: string, value: unknown): void {
  if (typeof value !== 'string') throw invalidOption(key, value, 'a string');
}

/**
 * Checks an optional option that must be one of a few literal values.
 *
 * @example
 * checkOneOf('steeringMode', config.steeringMode, ['interrupt', 'after-turn']);
 */
export function checkOneOf(key: string, value: unknown, accepted: readonly string[]): void {
  if (value !== undefined && !accepted.includes(value as string)) {
    throw invalidOption(key, value, `one of ${accepted.map((a) => `'${a}'`).join(', ')}`);
  }
}

/**
 * Checks an optional option that must be an object with the named methods.
 *
 * @example
 * checkMethods('scheduler', config.scheduler, ['now', 'schedule'], 'an RxJS SchedulerLike');
 */
export function checkMethods(key: string, value: unknown, methods: readonly string[], what: string): void {
  if (value === undefined) return;
  const ok =
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    methods.every((m) => typeof (value as Record<string, unknown>)[m] === 'function');
  if (!ok) throw invalidOption(key, value, `${what} (with ${methods.map((m) => `${m}()`).join(' and ')})`);
}
