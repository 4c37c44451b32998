/** undici's codes for a socket that closed under a response being read. */
const CONNECTION_CUT_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);

/**
 * Whether `error` (or one of its causes) is a connection closed while a body was read:
 * undici's `TypeError: terminated` or a socket reset, possibly wrapped by an SDK. Read by
 * name and code, not `instanceof`: fetch's errors may come from another realm (jest, vm).
 *
 * @example
 * import { isConnectionCut } from '@rxagent/core/provider';
 *
 * isConnectionCut(new TypeError('terminated')); // true
 */
export function isConnectionCut(error: unknown): boolean {
  return causeChain(error).some((e) => {
    const { message, code } = e as { message?: unknown; code?: unknown };
    return message === 'terminated' || (typeof code === 'string' && CONNECTION_CUT_CODES.has(code));
  });
}

/**
 * The messages of an error and its causes (at most 5), joined with `: `, trailing periods
 * dropped: one readable sentence for an error message.
 *
 * @example
 * import { describeError } from '@rxagent/core/provider';
 *
 * describeError(new Error('fetch failed', { cause: new Error('ECONNREFUSED') })); // 'fetch failed: ECONNREFUSED'
 */
export function describeError(error: unknown): string {
  const messages = causeChain(error)
    .map((e) => (e as { message?: unknown }).message)
    .filter((m): m is string => typeof m === 'string' && m !== '')
    .map((m) => m.replace(/[.\s]+$/, ''));
  return messages.length > 0 ? messages.join(': ') : String(error);
}

function causeChain(error: unknown): object[] {
  const chain: object[] = [];
  for (
    let e = error;
    typeof e === 'object' && e !== null && chain.length < 5;
    e = (e as { cause?: unknown }).cause
  ) {
    chain.push(e);
  }
  return chain;
}
