/**
 * The wait a response asks for, in ms: `retry-after-ms` (float ms), else `retry-after`
 * (seconds, or an HTTP date measured against `now`). Undefined when neither is usable.
 *
 * @param headers The response headers.
 * @param now The current time in epoch ms (the scheduler's clock).
 * @return Milliseconds to wait, or undefined.
 *
 * @example
 * retryAfterMs(new Headers({ 'retry-after': '2' }), Date.now()); // 2000
 */
export function retryAfterMs(headers: Headers, now: number): number | undefined {
  const ms = parseNumber(headers.get('retry-after-ms'));
  if (ms !== undefined && ms >= 0) return ms;
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = parseNumber(value);
  if (seconds !== undefined) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function parseNumber(text: string | null): number | undefined {
  if (text === null || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}
