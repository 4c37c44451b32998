import type { ModelEvent } from '../model/model-event.js';
import type { RateLimitInfo, RateLimitWindow } from '../model/rate-limit-info.js';

/**
 * Read access to response headers (the fetch `Headers` class fits).
 *
 * @example
 * const headers: RateLimitHeaderReader = new Headers({ 'x-ratelimit-remaining-requests': '499' });
 */
export interface RateLimitHeaderReader {
  get(name: string): string | null;
}

type Dimension = keyof RateLimitInfo;
type Figure = keyof RateLimitWindow;

/** Header name → where its figure goes, and how the reset is written. */
interface HeaderFact {
  name: string;
  dimension: Dimension;
  figure: Figure;
  reset?: 'duration' | 'date';
}

const OPENAI: readonly HeaderFact[] = (['requests', 'tokens'] as const).flatMap((dimension) => [
  { name: `x-ratelimit-limit-${dimension}`, dimension, figure: 'limit' as const },
  { name: `x-ratelimit-remaining-${dimension}`, dimension, figure: 'remaining' as const },
  {
    name: `x-ratelimit-reset-${dimension}`,
    dimension,
    figure: 'resetMs' as const,
    reset: 'duration' as const,
  },
]);

const ANTHROPIC_DIMENSIONS = [
  ['requests', 'requests'],
  ['input-tokens', 'inputTokens'],
  ['output-tokens', 'outputTokens'],
  ['tokens', 'tokens'],
] as const;

const ANTHROPIC: readonly HeaderFact[] = ANTHROPIC_DIMENSIONS.flatMap(([wire, dimension]) => [
  { name: `anthropic-ratelimit-${wire}-limit`, dimension, figure: 'limit' as const },
  { name: `anthropic-ratelimit-${wire}-remaining`, dimension, figure: 'remaining' as const },
  {
    name: `anthropic-ratelimit-${wire}-reset`,
    dimension,
    figure: 'resetMs' as const,
    reset: 'date' as const,
  },
]);

const HEADERS: readonly HeaderFact[] = [...OPENAI, ...ANTHROPIC];

const COUNT = /^\s*\d+(\.\d+)?\s*$/;
const DURATION_PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
const DURATION = /^\s*(\d+(?:\.\d+)?(ms|h|m|s))+\s*$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `"6m0s"`, `"1.5s"`, `"20ms"`, `"1h2m"` (OpenAI's reset format) in ms; undefined when not one. */
function durationMs(text: string): number | undefined {
  if (!DURATION.test(text)) return undefined;
  let ms = 0;
  for (const [, amount, unit] of text.matchAll(DURATION_PART)) ms += Number(amount) * UNIT_MS[unit!]!;
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}

function readFigure(fact: HeaderFact, text: string, now: number): number | undefined {
  if (fact.reset === 'duration') return durationMs(text);
  if (fact.reset === 'date') {
    const at = Date.parse(text.trim());
    return Number.isNaN(at) ? undefined : Math.max(0, at - now);
  }
  if (!COUNT.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/**
 * The `rate-limit` model event for a response's headers: OpenAI's
 * `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` (resets written `6m0s`) and
 * Anthropic's `anthropic-ratelimit-{requests,input-tokens,output-tokens,tokens}-{limit,remaining,reset}`
 * (resets as RFC 3339 dates, measured from `now`: the scheduler's clock). A header that is
 * present but unreadable is left out and named in `ignored`; undefined when the response has
 * none of these headers. Adapters emit the event as the response head arrives.
 *
 * @example
 * const event = rateLimitFromHeaders(response.headers, scheduler.now());
 * if (event) subscriber.next(event);
 */
export function rateLimitFromHeaders(
  headers: RateLimitHeaderReader | undefined,
  now: number,
): Extract<ModelEvent, { type: 'rate-limit' }> | undefined {
  if (!headers || typeof headers.get !== 'function') return undefined;
  const limits: RateLimitInfo = {};
  const ignored: string[] = [];
  let seen = false;
  for (const fact of HEADERS) {
    const text = headers.get(fact.name);
    if (text === null || text === undefined) continue;
    seen = true;
    const value = readFigure(fact, String(text), now);
    if (value === undefined) ignored.push(fact.name);
    else (limits[fact.dimension] ??= {})[fact.figure] = value;
  }
  if (!seen) return undefined;
  return ignored.length > 0 ? { type: 'rate-limit', limits, ignored } : { type: 'rate-limit', limits };
}
