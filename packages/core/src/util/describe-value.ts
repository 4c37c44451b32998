import { clip } from './clip.js';

/**
 * A short, readable description of any value for an error message: numbers as written
 * (`NaN`, `-1`, `Infinity`), other values as JSON with their type, clipped to `max` characters.
 *
 * @example
 * describeValue('3'); // '"3" (a string)'
 * describeValue(NaN); // 'NaN'
 * describeValue({ approved: 'false' }); // '{"approved":"false"} (an object)'
 */
export function describeValue(value: unknown, max = 200): string {
  switch (typeof value) {
    case 'undefined':
      return 'undefined';
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${String(value)}n (a bigint)`;
    case 'boolean':
      return `${String(value)} (a boolean)`;
    case 'string':
      return `${clip(JSON.stringify(value), max)} (a string)`;
    case 'symbol':
      return `${clip(String(value), max)} (a symbol)`;
    case 'function':
      return 'a function';
    case 'object':
      if (value === null) return 'null';
      return `${clip(json(value), max)} (${Array.isArray(value) ? 'an array' : 'an object'})`;
    default:
      return 'a value of an unknown type';
  }
}

function json(value: object): string {
  try {
    return JSON.stringify(value) ?? '?';
  } catch {
    // Cyclic, or holds a bigint: say what it is instead.
    return Array.isArray(value) ? '[…]' : '{…}';
  }
}
