import {
  AuthError,
  ContextOverflowError,
  NetworkError,
  OverloadedError,
  PartialStreamError,
  ProviderError,
  ProviderTimeoutError,
  RateLimitError,
  serializeError,
  StreamIdleError,
  type ProviderErrorInit,
  type SerializedError,
} from '@rxagent/core';

/**
 * An error as it crosses the proxy: the JSON-safe fields of `serializeError` (no body, no
 * cause, no stack) and the provider.
 *
 * @example
 * const wire: WireError = { name: 'RateLimitError', message: 'Slow down', status: 429, retryable: true, retryAfterMs: 2000 };
 */
export interface WireError extends SerializedError {
  provider?: string;
}

/**
 * The wire form of any error (what `serveModel` sends).
 *
 * @example
 * res.write(`event: error\ndata: ${JSON.stringify(toWireError(err))}\n\n`);
 */
export function toWireError(error: unknown): WireError {
  const wire: WireError = serializeError(error);
  if (ProviderError.isInstance(error) && error.provider !== undefined) wire.provider = error.provider;
  return wire;
}

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
 * The typed error a wire error stands for: the same `ProviderError` subclass (by name), with
 * `status`, `code`, `retryable` and `retryAfterMs` kept; anything else a `ProviderError` that
 * keeps the name in its message.
 *
 * @example
 * fromWireError({ name: 'RateLimitError', message: 'Slow down', retryable: true }); // a RateLimitError
 */
export function fromWireError(wire: WireError): ProviderError {
  const init: ProviderErrorInit & { retryAfterMs?: number } = {
    ...(wire.status !== undefined ? { status: wire.status } : {}),
    ...(wire.code !== undefined ? { code: wire.code } : {}),
    ...(wire.provider !== undefined ? { provider: wire.provider } : {}),
    ...(wire.retryAfterMs !== undefined ? { retryAfterMs: wire.retryAfterMs } : {}),
    retryable: wire.retryable === true,
  };
  const make = CLASSES[wire.name];
  if (make) return make(wire.message, init);
  const message = wire.name === 'ProviderError' ? wire.message : `${wire.name}: ${wire.message}`;
  return new ProviderError(message, init);
}
