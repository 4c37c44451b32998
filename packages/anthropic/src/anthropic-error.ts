import { APIError } from '@anthropic-ai/sdk';
import {
  AuthError,
  ContextOverflowError,
  NetworkError,
  OverloadedError,
  PartialStreamError,
  ProviderError,
  ProviderTimeoutError,
  RateLimitError,
  type AssistantMessage,
} from '@rxagent/core';
import { redactSecret, type ProviderErrorInit } from '@rxagent/core/provider';
import {
  describeError,
  isConnectionCut,
  retryAfterMs,
  secretFreeCause,
  shouldRetryHeader,
} from '@rxagent/core/provider';

const provider = 'anthropic';
const CONTEXT_OVERFLOW = [/prompt is too long/i, /input length and `?max_tokens`? exceed context limit/i];
const RETRYABLE_STREAM_TYPES = new Set([
  'api_error',
  'overloaded_error',
  'rate_limit_error',
  'timeout_error',
]);

/**
 * What the classifier needs to know besides the error.
 *
 * @example
 * const context: AnthropicErrorContext = { received: true, partial: mapper.partial(), now: scheduler.now() };
 */
export interface AnthropicErrorContext {
  /** Whether any stream event arrived (a cut is then a partial stream, else a network error). */
  received: boolean;
  /** The message as far as it arrived. */
  partial?: AssistantMessage;
  /** The scheduler's clock, for `retry-after` dates. */
  now: number;
  /** Removed from every message, body and cause, should the API ever echo it. */
  apiKey?: string;
  /** Likewise (the `authToken` of a client passed in). */
  authToken?: string;
}

/**
 * Turns whatever the SDK threw into one typed core error: `RateLimitError` (429, with
 * `retryAfterMs`), `OverloadedError` (529 or an in-stream `overloaded_error`), `AuthError`
 * (401/403), `ContextOverflowError` ("prompt is too long"), `ProviderTimeoutError`,
 * `NetworkError`, `PartialStreamError` (connection cut mid-body), else `ProviderError` with
 * status and body. `retryable` follows `x-should-retry` when the server sent it.
 *
 * @example
 * catch (error) { subscriber.error(classifyAnthropicError(error, { received, partial, now: scheduler.now() })); }
 */
export function classifyAnthropicError(error: unknown, context: AnthropicErrorContext): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  const secrets = secretsOf(context);
  const clean = (text: string) => redactAll(text, secrets);
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  const init = { provider, cause: causeWithout(error, secrets) };
  if (name === 'APIConnectionTimeoutError') {
    return new ProviderTimeoutError(
      'Anthropic sent no response head in time; raise requestTimeoutMs if needed.',
      init,
    );
  }
  if (name === 'APIConnectionError' || name === 'APIUserAbortError') {
    return new NetworkError(`Could not reach Anthropic: ${clean(describeError(error))}`, init);
  }
  if (isApiError(error)) return fromApiError(error, context, clean);
  if (isConnectionCut(error)) {
    return context.received
      ? new PartialStreamError('The Anthropic stream was cut before message_stop.', {
          ...init,
          partial: context.partial,
        })
      : new NetworkError('The connection to Anthropic closed before any event arrived.', init);
  }
  if (name === 'SyntaxError') {
    const message = `Anthropic sent an event that is not JSON: ${clean(describeError(error))}`;
    return new PartialStreamError(message, { ...init, partial: context.partial });
  }
  return new ProviderError(`The Anthropic call failed: ${clean(describeError(error))}`, {
    ...init,
    retryable: false,
  });
}

/**
 * The typed error for an in-stream `event: error` body (`{ type: 'error', error: { type, message } }`).
 *
 * @example
 * anthropicStreamError({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }); // OverloadedError
 */
export function anthropicStreamError(
  body: { error?: { type?: string; message?: string } },
  secrets: readonly string[] = [],
): ProviderError {
  const type = body.error?.type ?? 'unknown_error';
  const detail = redactAll(body.error?.message ?? type, secrets);
  return fromErrorType(type, detail, { provider, code: type, body: redactAll(body, secrets) });
}

/**
 * The credentials of an error context that must not appear in errors.
 *
 * @example
 * secretsOf({ received: false, now: 0, apiKey: 'sk-ant-…' }); // ['sk-ant-…']
 */
export function secretsOf(context: Pick<AnthropicErrorContext, 'apiKey' | 'authToken'>): string[] {
  return [context.apiKey, context.authToken].filter((s): s is string => typeof s === 'string' && s !== '');
}

function fromApiError(error: APIError, context: AnthropicErrorContext, clean: (s: string) => string) {
  const secrets = secretsOf(context);
  const detail = clean(error.apiMessage ?? error.message);
  const type = error.type ?? undefined;
  const init: ProviderErrorInit = {
    provider,
    code: error.errorCode ?? type,
    body: redactAll(error.error, secrets),
    cause: causeWithout(error, secrets),
    ...(error.requestID ? { requestId: error.requestID } : {}),
  };
  const status = error.status;
  if (status === undefined) return fromErrorType(type ?? 'unknown_error', detail, init);
  const shouldRetry = shouldRetryHeader(error.headers);
  if (shouldRetry !== undefined) init.retryable = shouldRetry;
  init.status = status;
  const wait = retryAfterMs({ headers: error.headers }, context.now);
  if (status === 429) {
    return new RateLimitError(`Anthropic rate limit reached (429): ${detail}`, {
      ...init,
      retryAfterMs: wait,
    });
  }
  if (status === 529)
    return new OverloadedError(`Anthropic is overloaded (529): ${detail}`, { ...init, retryAfterMs: wait });
  if (status === 401 || status === 403) {
    return new AuthError(
      `Anthropic refused the credentials (${status}): ${detail}. Check the apiKey option or ANTHROPIC_API_KEY.`,
      init,
    );
  }
  if (status === 400 && CONTEXT_OVERFLOW.some((re) => re.test(detail))) {
    return new ContextOverflowError(`The prompt does not fit the model's context window: ${detail}`, init);
  }
  return new ProviderError(`Anthropic returned ${status}: ${detail}`, init);
}

function fromErrorType(type: string, detail: string, init: ProviderErrorInit): ProviderError {
  if (type === 'overloaded_error') return new OverloadedError(`Anthropic is overloaded: ${detail}`, init);
  if (type === 'rate_limit_error') return new RateLimitError(`Anthropic rate limit reached: ${detail}`, init);
  if (CONTEXT_OVERFLOW.some((re) => re.test(detail))) {
    return new ContextOverflowError(`The prompt does not fit the model's context window: ${detail}`, init);
  }
  return new ProviderError(`Anthropic stream error (${type}): ${detail}`, {
    retryable: RETRYABLE_STREAM_TYPES.has(type),
    ...init,
  });
}

/** An SDK `APIError`, also from another copy of the SDK (a `client` passed in). */
function isApiError(error: unknown): error is APIError {
  return (
    error instanceof APIError ||
    (error instanceof Error && 'status' in error && 'error' in error && 'headers' in error)
  );
}

function redactAll<T>(value: T, secrets: readonly string[]): T {
  return secrets.reduce((out, secret) => redactSecret(out, secret), value);
}

/** The cause to attach: the error itself when it mentions no secret, else a redacted copy. */
function causeWithout(error: unknown, secrets: readonly string[]): unknown {
  return secrets.reduce((out, secret) => secretFreeCause(out, secret), error);
}
