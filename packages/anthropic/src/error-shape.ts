/** undici's codes for a socket that closed under a response being read. */
const CONNECTION_CUT_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE', 'UND_ERR_CLOSED']);

/**
 * A property of a value that may be an error, read without trusting `instanceof` (fetch's
 * errors can come from another realm, e.g. under jest).
 *
 * @example
 * errorField(error, 'code'); // 'UND_ERR_SOCKET'
 */
export function errorField(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * An error followed by its `cause`s (at most 5).
 *
 * @example
 * causeChain(new Error('a', { cause: new Error('b') })).length; // 2
 */
export function causeChain(error: unknown): object[] {
  const chain: object[] = [];
  for (let e = error; typeof e === 'object' && e !== null && chain.length < 5; e = errorField(e, 'cause')) {
    chain.push(e);
  }
  return chain;
}

/**
 * The messages of an error and its causes, joined with `: `.
 *
 * @example
 * describeError(new Error('fetch failed', { cause: new Error('ECONNREFUSED') })); // 'fetch failed: ECONNREFUSED'
 */
export function describeError(error: unknown): string {
  const messages = causeChain(error)
    .map((e) => errorField(e, 'message'))
    .filter((m): m is string => typeof m === 'string' && m !== '')
    .map((m) => m.replace(/\.$/, ''));
  return messages.length > 0 ? messages.join(': ') : String(error);
}

/**
 * Whether the connection closed while a body was read: undici throws `TypeError: terminated`
 * with a socket error (`UND_ERR_SOCKET`) as cause, possibly wrapped again.
 *
 * @example
 * isConnectionCut(new TypeError('terminated')); // true
 */
export function isConnectionCut(error: unknown): boolean {
  return causeChain(error).some((e) => {
    const code = errorField(e, 'code');
    return (
      errorField(e, 'message') === 'terminated' ||
      (typeof code === 'string' && CONNECTION_CUT_CODES.has(code))
    );
  });
}
