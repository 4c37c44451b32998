import { inspect } from 'node:util';
import { serializeError } from '@rxagent/core/provider';

/**
 * Where `secret` shows in an error, in every place an error is read or logged from: its
 * message, `serializeError`, stack, `util.inspect`, and each cause in its chain. An empty list
 * means it leaks nowhere.
 *
 * @param error The error to search.
 * @param secret The key or token that must not show.
 * @return The places it shows (`'message'`, `'serializeError'`, `'stack'`, `'inspect'`, `'cause[0].message'`, …).
 *
 * @example
 * expect(secretLeaks(error, 'sk-test-123')).toEqual([]);
 */
export function secretLeaks(error: unknown, secret: string): string[] {
  const leaks: string[] = [];
  const check = (place: string, text: string | undefined) => {
    if (text?.includes(secret)) leaks.push(place);
  };
  if (error instanceof Error) {
    check('message', error.message);
    check('stack', error.stack);
  }
  check('serializeError', JSON.stringify(serializeError(error)));
  check('inspect', inspect(error, { depth: 10 }));
  let cause: unknown = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; cause !== undefined && depth < 10; depth++) {
    check(`cause[${depth}]`, inspect(cause, { depth: 10 }));
    if (cause instanceof Error) {
      check(`cause[${depth}].message`, cause.message);
      check(`cause[${depth}].stack`, cause.stack);
    }
    cause = typeof cause === 'object' && cause !== null && 'cause' in cause ? cause.cause : undefined;
  }
  return leaks;
}
