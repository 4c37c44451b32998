import { ProviderError, type ProviderErrorInit } from './provider-error.js';
import {
  AuthError,
  ContextOverflowError,
  NetworkError,
  OverloadedError,
  PartialStreamError,
  ProviderTimeoutError,
  RateLimitError,
  StreamIdleError,
} from './provider-errors.js';
import type { SerializedError } from './serialize-error.js';

type Make = (message: string, init: ProviderErrorInit & { retryAfterMs?: number }) => ProviderError;

const CLASSES: Record<string, Make> = {
  RateLimitError: (m, i) => new RateLimitError(m, i),
  OverloadedError: (m, i) => new OverloadedError(m, i),
  ProviderTimeoutError: (m, i) => new ProviderTimeoutError(m, i),
  StreamIdleError: (m, i) => new StreamIdleError(m, i),
  NetworkError: (m, i) => new NetworkError(m, i),
  AuthError: (m, i) => new AuthError(m, i),
  ContextOverflowError: (m, i) => new ContextOverflowError(m, i),
  PartialStreamError: (m, i) => new PartialStreamError(m, i),
};

/**
 * The typed error a `SerializedError` stands for, for errors that crossed a process or were
 * stored (a proxy, a cassette, a durable run): the same `ProviderError` subclass (by name), with
 * `status`, `code`, `retryable` and `retryAfterMs` kept; anything else a `ProviderError` that
 * keeps the name in its message, so the retry policy treats it by its `retryable` flag.
 *
 * @example
 * reviveProviderError({ name: 'RateLimitError', message: 'Slow down', retryable: true }); // a RateLimitError
 */
export function reviveProviderError(error: SerializedError & { provider?: string }): ProviderError {
  const init: ProviderErrorInit & { retryAfterMs?: number } = {
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(error.code !== undefined ? { code: error.code } : {}),
    ...(error.provider !== undefined ? { provider: error.provider } : {}),
    ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
    retryable: error.retryable === true,
  };
  const make = CLASSES[error.name];
  if (make) return make(error.message, init);
  const message = error.name === 'ProviderError' ? error.message : `${error.name}: ${error.message}`;
  return new ProviderError(message, init);
}
