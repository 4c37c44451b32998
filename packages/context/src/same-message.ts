import type { Message } from '@rxagent/core';

/**
 * Whether two JSON values are equal: the same object, or the same fields (in any order; a
 * field set to `undefined` is a missing field) with equal values. A message of a resumed run
 * is a copy of the original's, not the original.
 *
 * @example
 * sameValue({ role: 'user', content: 'hi' }, { content: 'hi', role: 'user' }); // true
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x).filter((k) => x[k] !== undefined);
  if (keys.length !== Object.keys(y).filter((k) => y[k] !== undefined).length) return false;
  return keys.every((k) => sameValue(x[k], y[k]));
}

/**
 * Whether two messages are the same but for their times: a message of a resumed run is a copy
 * of the original's, and one a durable run replayed after a crash rebuilt is stamped anew.
 *
 * @example
 * sameMessage({ role: 'user', content: 'hi', timestamp: 1 }, { role: 'user', content: 'hi', timestamp: 2 }); // true
 */
export function sameMessage(a: Message | undefined, b: Message | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return false;
  const { timestamp: _a, ...x } = a;
  const { timestamp: _b, ...y } = b;
  return sameValue(x, y);
}
