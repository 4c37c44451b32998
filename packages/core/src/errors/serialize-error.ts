import { redactSecrets } from '../util/redact-secret.js';
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
 * Options of `serializeError`.
 *
 * @example
 * serializeError(error, { secrets: model.secrets });
 */
export interface SerializeErrorOptions {
  /** Values replaced by `[redacted]` in the message (a model's `secrets`). */
  secrets?: readonly string[];
}

/**
 * Turns any thrown value into a `SerializedError` (no stack, no body, no cause: nothing that
 * could carry a secret), with `options.secrets` redacted from the message.
 *
 * @example
 * const json = JSON.stringify(serializeError(err, { secrets: model.secrets }));
 */
export function serializeError(error: unknown, options: SerializeErrorOptions = {}): SerializedError {
  const clean = (text: string) => redactSecrets(text, options.secrets);
  if (!(error instanceof Error)) return { name: 'Error', message: clean(String(error)) };
  const out: SerializedError = { name: error.name, message: clean(error.message) };
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
