import {
  AuthError,
  ContextOverflowError,
  OverloadedError,
  ProviderError,
  RateLimitError,
  type RxAgentError,
} from '@rxagent/core';
import type { ProviderErrorInit } from '@rxagent/core/provider';
import type { ErrorContext, OpenAIErrorPayload } from './openai-error.js';
import { redactSecret } from '@rxagent/core/provider';
import { retryAfterMs, shouldRetryHeader, type HeaderReader } from '@rxagent/core/provider';

/**
 * What an HTTP error response adds to its error body.
 *
 * @example
 * const http: HttpDetails = { status: 429, headers: new Headers({ 'retry-after': '2' }), requestId: 'req_1' };
 */
export interface HttpDetails {
  status?: number;
  headers?: HeaderReader;
  requestId?: string;
}

/**
 * An OpenAI error body (`{ message, type, code, param }`) → one typed rxagent error, from an
 * HTTP error response (`http`) or from inside a stream (no status: classified by `code`,
 * falling back to `type`). 401/403 → `AuthError`; `context_length_exceeded` (or a 400 whose
 * message says so) → `ContextOverflowError`; 429 → `RateLimitError` (`insufficient_quota` not
 * retryable); 503 / overloaded → `OverloadedError`; else `ProviderError`. `retryable` follows
 * `x-should-retry` when sent, else the status (408, 409, 429, 5xx) or, in a stream, server-side
 * codes. The API key is removed from message and body.
 *
 * @example
 * classifyErrorPayload({ code: 'server_error', message: 'Oops' }, ctx); // ProviderError, retryable
 */
export function classifyErrorPayload(
  payload: OpenAIErrorPayload,
  ctx: ErrorContext,
  http: HttpDetails = {},
): RxAgentError {
  const { status, headers, requestId } = http;
  const code = stringOr(payload.code) ?? stringOr(payload.type);
  const detail = redactSecret(stringOr(payload.message) ?? 'no message', ctx.secret);
  const where = status === undefined ? 'in the stream' : `with ${status}`;
  const label = `OpenAI failed ${where}${code ? ` (${code})` : ''}: ${detail}`;
  const init: ProviderErrorInit = { provider: 'openai', body: redactSecret(payload, ctx.secret) };
  if (status !== undefined) init.status = status;
  if (code !== undefined) init.code = code;
  if (requestId) init.requestId = requestId;
  const verdict = shouldRetryHeader(headers);
  const retryable = verdict ?? (status === undefined ? isRetryableCode(code) : undefined);
  if (retryable !== undefined) init.retryable = retryable;

  if (status === 401 || status === 403 || code === 'invalid_api_key') {
    return new AuthError(
      `${label}. Check the apiKey option or OPENAI_API_KEY, and the key's organization, project and model access.`,
      { ...init, retryable: false },
    );
  }
  if (isContextOverflow(code, detail, status)) {
    return new ContextOverflowError(
      `${label}. The prompt does not fit ${ctx.modelId}'s context window: shorten the transcript or use a larger model.`,
      { ...init, retryable: false },
    );
  }
  // Without retry-after, the reset time of the limit that was hit (`type` names it).
  const reset =
    payload.type === 'tokens' || payload.type === 'requests' ? [`x-ratelimit-reset-${payload.type}`] : [];
  const waitMs = retryAfterMs({ headers, extraHeaders: reset }, ctx.now);
  if (status === 429 || code === 'rate_limit_exceeded' || code === 'insufficient_quota') {
    const quota = code === 'insufficient_quota';
    const hint = quota ? '. The quota is used up: add credit or raise the limit.' : '';
    return new RateLimitError(label + hint, {
      ...init,
      retryable: quota ? false : (verdict ?? true),
      ...(waitMs === undefined ? {} : { retryAfterMs: waitMs }),
    });
  }
  if (status === 503 || status === 529 || code === 'overloaded_error' || code === 'server_is_overloaded') {
    return new OverloadedError(label, { ...init, ...(waitMs === undefined ? {} : { retryAfterMs: waitMs }) });
  }
  return new ProviderError(label, init);
}

const SERVER_CODES = new Set([
  'server_error',
  'internal_error',
  'api_error',
  'overloaded_error',
  'server_is_overloaded',
]);

function isRetryableCode(code: string | undefined): boolean {
  return code !== undefined && (SERVER_CODES.has(code) || code === 'rate_limit_exceeded');
}

function isContextOverflow(code: string | undefined, message: string, status: number | undefined): boolean {
  if (code === 'context_length_exceeded') return true;
  if (status !== undefined && status !== 400 && status !== 413) return false;
  return /maximum context length|context window|context length exceeded|prompt is too long/i.test(message);
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
