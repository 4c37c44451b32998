import { ProviderError } from './provider-error.js';
import { OverloadedError, RateLimitError } from './provider-errors.js';

/**
 * A JSON-safe description of an error, as carried by events and state.
 *
 * @example
 * const e: SerializedError = { name: 'RateLimitError', message: 'Too many requests', status: 429, retryable: true };
 */
export interface SerializedError {
  name: string;
  message: string;
  status?: number;
  code?: string;
  retryable?: boolean;
  retryAfterMs?: number;
}

/**
 * Turns any thrown value into a `SerializedError` (no stack, no body, no cause: nothing that
 * could carry a secret).
 *
 * @example
 * const json = JSON.stringify(serializeError(err));
 */
export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const out: SerializedError = { name: error.name, message: error.message };
  if (ProviderError.isInstance(error)) {
    if (error.status !== undefined) out.status = error.status;
    if (error.code !== undefined) out.code = error.code;
    out.retryable = error.retryable;
    if (RateLimitError.isInstance(error) || OverloadedError.isInstance(error)) {
      if (error.retryAfterMs !== undefined) out.retryAfterMs = error.retryAfterMs;
    }
  }
  return out;
}
