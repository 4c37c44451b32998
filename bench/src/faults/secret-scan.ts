import { inspect } from 'node:util';
import { serializeError } from '@rxagent/core/provider';

/**
 * Every string reachable from `value` through own properties (enumerable or not, so error
 * causes, `body`, `headers`, SDK internals), up to `maxDepth` objects deep. Functions are
 * skipped; Headers-like objects are read entry by entry.
 *
 * @example
 * reachableStrings(error).some((s) => s.includes(apiKey));
 */
export function reachableStrings(value: unknown, maxDepth = 10): string[] {
  const out: string[] = [];
  const seen = new Set<object>();
  const visit = (v: unknown, depth: number) => {
    if (typeof v === 'string') return void out.push(v);
    if (typeof v !== 'object' || v === null || depth > maxDepth || seen.has(v)) return;
    seen.add(v);
    const entries = (v as { entries?: unknown }).entries;
    if (
      (v instanceof Map || (typeof Headers !== 'undefined' && v instanceof Headers)) &&
      typeof entries === 'function'
    ) {
      for (const [k, val] of (v as Map<unknown, unknown>).entries()) {
        visit(k, depth + 1);
        visit(val, depth + 1);
      }
    }
    for (const key of Object.getOwnPropertyNames(v)) {
      let child: unknown;
      try {
        child = (v as Record<string, unknown>)[key];
      } catch {
        continue;
      }
      out.push(key);
      visit(child, depth + 1);
    }
  };
  visit(value, 0);
  return out;
}

/** Where a secret was found. */
export interface SecretLeak {
  where: string;
  excerpt: string;
}

/**
 * Looks for `secret` in everything a run produced: the events as JSON, the error's message,
 * stack, `serializeError`, its cause chain, what `util.inspect` (i.e. a logger) prints, every
 * string reachable from it, and the captured log lines.
 *
 * @example
 * expect(findSecret('sk-test-SECRET-123', { events, error, logs })).toEqual([]);
 */
export function findSecret(
  secret: string,
  produced: { events: unknown[]; error?: unknown; state?: unknown; logs?: string[] },
): SecretLeak[] {
  const leaks: SecretLeak[] = [];
  const check = (where: string, text: string) => {
    const at = text.indexOf(secret);
    if (at >= 0) leaks.push({ where, excerpt: text.slice(Math.max(0, at - 60), at + secret.length + 20) });
  };
  check('events (JSON)', JSON.stringify(produced.events));
  if (produced.state !== undefined) check('state (JSON)', JSON.stringify(produced.state));
  for (const [i, line] of (produced.logs ?? []).entries()) check(`log line ${i}`, line);
  const error = produced.error;
  if (error !== undefined) {
    check('serializeError (JSON)', JSON.stringify(serializeError(error)));
    let depth = 0;
    for (let e: unknown = error; e && depth < 10; e = (e as { cause?: unknown }).cause, depth++) {
      const err = e as { message?: unknown; stack?: unknown };
      check(`cause[${depth}].message`, String(err.message));
      check(`cause[${depth}].stack`, String(err.stack));
    }
    check('util.inspect(error)', inspect(error, { depth: 8 }));
    check('reachable from the error', reachableStrings(error).join('\n'));
  }
  return leaks;
}
