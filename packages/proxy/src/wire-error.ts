import { ProviderError, type SerializedError } from '@rxagent/core';
import { serializeError } from '@rxagent/core/provider';
import { reviveProviderError } from '@rxagent/core/provider';

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
 * The wire form of any error (what `serveModel` sends), with `secrets` (the served model's)
 * redacted from its message.
 *
 * @example
 * res.write(`event: error\ndata: ${JSON.stringify(toWireError(err, model.secrets))}\n\n`);
 */
export function toWireError(error: unknown, secrets?: readonly string[]): WireError {
  const wire: WireError = serializeError(error, { secrets });
  if (ProviderError.isInstance(error) && error.provider !== undefined) wire.provider = error.provider;
  return wire;
}

/**
 * The typed error a wire error stands for: the same `ProviderError` subclass (by name), with
 * `status`, `code`, `retryable` and `retryAfterMs` kept; anything else a `ProviderError` that
 * keeps the name in its message.
 *
 * @example
 * fromWireError({ name: 'RateLimitError', message: 'Slow down', retryable: true }); // a RateLimitError
 */
export function fromWireError(wire: WireError): ProviderError {
  return reviveProviderError(wire);
}
