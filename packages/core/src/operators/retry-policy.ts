import { ProviderError } from '../errors/provider-error.js';
import { OverloadedError, RateLimitError } from '../errors/provider-errors.js';
import type { RetryBackoff } from '../turn/run-config.js';

/**
 * The wait before retry number `attempt` (1-based): the provider's retry-after when it sent
 * one, else 1 s, 2 s, 4 s… with jitter; both capped (60 s by default).
 *
 * @example
 * retryDelayMs(new RateLimitError('slow down', { retryAfterMs: 2000 }), 1, {}, Math.random); // 2000
 */
export function retryDelayMs(
  error: unknown,
  attempt: number,
  backoff: RetryBackoff = {},
  random: () => number = Math.random,
): number {
  // A timer cannot wait longer than 2^31 - 1 ms (Node would fire it after 1 ms).
  const max = Math.min(backoff.maxDelayMs ?? 60_000, 2 ** 31 - 1);
  if (RateLimitError.isInstance(error) || OverloadedError.isInstance(error)) {
    const after = error.retryAfterMs;
    if (after !== undefined && Number.isFinite(after) && after >= 0) return Math.min(after, max);
  }
  const base = Math.min((backoff.initialDelayMs ?? 1000) * 2 ** (attempt - 1), max);
  const jitter = Math.min(Math.max(backoff.jitter ?? 0.2, 0), 1);
  return Math.round(base * (1 - jitter * random()));
}

/**
 * Whether a failed model call may be tried again: provider errors say so themselves
 * (`retryable`); anything else is not retried.
 *
 * @example
 * isRetryable(new NetworkError('reset')); // true
 */
export function isRetryable(error: unknown): boolean {
  return ProviderError.isInstance(error) && error.retryable;
}
