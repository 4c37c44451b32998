/**
 * Read access to response headers (the fetch `Headers` class fits, and so does a plain
 * lower-cased record through `headerReader`).
 *
 * @example
 * const headers: HeaderReader = new Headers({ 'retry-after': '1' });
 */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * Where a provider may say how long to wait before trying again.
 *
 * @example
 * const source: RetryAfterSource = { headers: error.headers, body: error.error, extraHeaders: ['x-ratelimit-reset-requests'] };
 */
export interface RetryAfterSource {
  headers?: HeaderReader | null;
  /** The error body (Google's `error.details[]` may hold a `google.rpc.RetryInfo`). */
  body?: unknown;
  /**
   * Provider-specific headers read after the standard ones, in order: seconds, a duration
   * (`1m30s`, `250ms`), an HTTP date or an RFC 3339 time.
   */
  extraHeaders?: readonly string[];
}

/**
 * The wait a provider asked for, in ms, from the first usable of: `retry-after-ms`
 * (milliseconds), `retry-after` (seconds, or an HTTP date measured from `now`), the
 * provider-specific `extraHeaders`, then a `google.rpc.RetryInfo` in the body (`retryDelay`,
 * e.g. `"34.4s"`). Undefined when none is sent or usable (negative, not a number, a date
 * that does not parse). A date in the past is 0.
 *
 * @param source Headers, body and extra header names.
 * @param now The current time in epoch ms (the scheduler's clock).
 * @return Milliseconds to wait, or undefined.
 *
 * @example
 * import { retryAfterMs } from '@rxagent/core/provider';
 *
 * retryAfterMs({ headers: new Headers({ 'retry-after': '1.5' }) }, scheduler.now()); // 1500
 * retryAfterMs({ body: { error: { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' }] } } }, 0); // 34400
 */
export function retryAfterMs(source: RetryAfterSource, now: number): number | undefined {
  const headers = source.headers ?? undefined;
  const ms = parseNumber(headers?.get('retry-after-ms'));
  if (ms !== undefined) return ms;
  const standard = waitFrom(headers?.get('retry-after'), now, false);
  if (standard !== undefined) return standard;
  for (const name of source.extraHeaders ?? []) {
    const wait = waitFrom(headers?.get(name), now, true);
    if (wait !== undefined) return wait;
  }
  return retryInfoDelayMs(source.body);
}

/**
 * The provider's own retry verdict (`x-should-retry: true|false`), undefined when not sent.
 *
 * @example
 * import { shouldRetryHeader } from '@rxagent/core/provider';
 *
 * shouldRetryHeader(new Headers({ 'x-should-retry': 'false' })); // false
 */
export function shouldRetryHeader(headers: HeaderReader | null | undefined): boolean | undefined {
  const value = headers?.get('x-should-retry')?.trim().toLowerCase();
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

/**
 * The `retryDelay` of a `google.rpc.RetryInfo` detail in a Google error body (`{ error: {
 * details: [...] } }`, or the `error` object itself, or the details list), in ms.
 *
 * @example
 * import { retryInfoDelayMs } from '@rxagent/core/provider';
 *
 * retryInfoDelayMs({ error: { details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' }] } }); // 2000
 */
export function retryInfoDelayMs(body: unknown): number | undefined {
  const error = field(body, 'error') ?? body;
  const details = Array.isArray(error) ? error : field(error, 'details');
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const type = field(detail, '@type');
    if (typeof type !== 'string' || !type.endsWith('google.rpc.RetryInfo')) continue;
    const delay = field(detail, 'retryDelay');
    if (typeof delay === 'string') return durationMs(delay);
    // The protobuf object form: { seconds, nanos }.
    const seconds = Number(field(delay, 'seconds') ?? 0);
    const nanos = Number(field(delay, 'nanos') ?? 0);
    if (Number.isFinite(seconds) && Number.isFinite(nanos) && seconds >= 0 && nanos >= 0) {
      return Math.round(seconds * 1000 + nanos / 1e6);
    }
  }
  return undefined;
}

/**
 * Headers given as a plain record (any case), read like fetch `Headers`.
 *
 * @example
 * import { headerReader } from '@rxagent/core/provider';
 *
 * headerReader({ 'Retry-After': '2' }).get('retry-after'); // '2'
 */
export function headerReader(record: Record<string, string | string[] | undefined>): HeaderReader {
  const lower = new Map<string, string>();
  for (const [key, value] of Object.entries(record)) {
    if (value !== undefined) lower.set(key.toLowerCase(), Array.isArray(value) ? value.join(', ') : value);
  }
  return { get: (name) => lower.get(name.toLowerCase()) ?? null };
}

function waitFrom(text: string | null | undefined, now: number, durations: boolean): number | undefined {
  const value = text?.trim();
  if (!value) return undefined;
  const seconds = parseNumber(value);
  if (seconds !== undefined) return Math.round(seconds * 1000);
  if (durations) {
    const duration = durationMs(value);
    if (duration !== undefined) return duration;
  }
  // A signed or bare number that is no wait (`-1`) is not a date either.
  if (/^[+-]?\d+(\.\d+)?$/.test(value)) return undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const UNITS: Record<string, number> = {
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 0.001,
  µs: 0.001,
  ns: 1e-6,
};

/** `34.4s`, `1m30s`, `250ms`: Go-style and protobuf durations. */
function durationMs(text: string): number | undefined {
  const parts = [...text.trim().matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text.trim()) return undefined;
  return Math.round(parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * UNITS[unit!]!, 0));
}

function parseNumber(text: string | null | undefined): number | undefined {
  if (text === null || text === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}
