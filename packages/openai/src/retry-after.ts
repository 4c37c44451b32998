/**
 * Read access to response headers (the fetch `Headers` class fits).
 *
 * @example
 * const headers: HeaderReader = new Headers({ 'retry-after': '1' });
 */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The wait a provider asked for, in ms: `retry-after-ms` (milliseconds), else `retry-after`
 * (seconds, or an HTTP date measured from `now`). Undefined when neither is sent or usable.
 *
 * @example
 * retryAfterMs(new Headers({ 'retry-after': '1.5' }), Date.now()); // 1500
 */
export function retryAfterMs(headers: HeaderReader | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const ms = parseNumber(headers.get('retry-after-ms'));
  if (ms !== undefined) return ms;
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = parseNumber(value);
  if (seconds !== undefined) return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The provider's own retry verdict (`x-should-retry: true|false`), undefined when not sent.
 *
 * @example
 * shouldRetryHeader(new Headers({ 'x-should-retry': 'false' })); // false
 */
export function shouldRetryHeader(headers: HeaderReader | undefined): boolean | undefined {
  const value = headers?.get('x-should-retry')?.trim().toLowerCase();
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

function parseNumber(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}
