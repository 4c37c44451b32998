import {
  AuthError,
  ContextOverflowError,
  NetworkError,
  OverloadedError,
  PartialStreamError,
  ProviderError,
  RateLimitError,
  type AssistantMessage,
} from '@rxagent/core';
import { redactSecret, type ProviderErrorInit } from '@rxagent/core/provider';
import {
  describeError,
  isConnectionCut,
  retryAfterMs,
  secretFreeCause,
  type HeaderReader,
} from '@rxagent/core/provider';

const provider = 'google';
const CONTEXT_OVERFLOW = [
  /input token count.*exceeds/i,
  /exceeds the maximum number of tokens/i,
  /context (window|length)/i,
  /prompt is too long/i,
];

/**
 * What the classifier needs besides the error.
 *
 * @example
 * const context: GoogleErrorContext = { received: true, partial, secrets: [apiKey] };
 */
export interface GoogleErrorContext {
  /** Whether any chunk arrived (a cut is then a partial stream, else a network error). */
  received: boolean;
  /** The message as far as it arrived. */
  partial?: AssistantMessage;
  /** Credentials to keep out of every message, body and cause. */
  secrets?: readonly string[];
  /** The failed response's headers (a `retry-after`). */
  headers?: HeaderReader;
  /** The scheduler's clock, for `retry-after` dates. */
  now?: number;
}

/**
 * A Google API error body: `{ error: { code, message, status, details } }`.
 *
 * @example
 * const body: GoogleErrorBody = { error: { code: 429, message: 'Quota exceeded', status: 'RESOURCE_EXHAUSTED' } };
 */
export interface GoogleErrorBody {
  error?: { code?: number; message?: string; status?: string; details?: unknown[] };
}

/**
 * Turns whatever `@google/genai` threw into one typed core error. The SDK's `ApiError` has a
 * status and the error body as its message (an error inside a 200 stream too): 401/403 and an
 * invalid key (`API_KEY_INVALID`) → `AuthError`; 429 → `RateLimitError` with `retryAfterMs`
 * from `retry-after`, else the body's `google.rpc.RetryInfo`; a prompt over the context window →
 * `ContextOverflowError`; 503 → `OverloadedError`; else `ProviderError` (retryable for 408,
 * 409, 429, 5xx). A connection cut → `PartialStreamError` (with the partial message) or, before
 * any chunk, `NetworkError`, as is a refused connection; a body that is not JSON or ends inside
 * an event → `PartialStreamError`. The API key is removed from messages, bodies and causes.
 *
 * @example
 * catch (error) { subscriber.error(classifyGoogleError(error, { received, partial, secrets: [apiKey] })); }
 */
export function classifyGoogleError(error: unknown, context: GoogleErrorContext): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  const secrets = context.secrets ?? [];
  const clean = <T>(value: T): T => secrets.reduce((out, secret) => redactSecret(out, secret), value);
  const cause = secrets.reduce<unknown>((out, secret) => secretFreeCause(out, secret), error);
  const init: ProviderErrorInit = { provider, cause };
  if (isApiError(error)) return fromApiError(error, clean, cause, context);
  const detail = clean(describeError(error));
  if (isConnectionCut(error)) {
    return context.received
      ? new PartialStreamError(`The Gemini stream was cut mid-response (${detail}).`, {
          ...init,
          partial: context.partial,
        })
      : new NetworkError(`The connection to Gemini closed before any data arrived (${detail}).`, init);
  }
  const message = error instanceof Error ? error.message : '';
  if (/^Incomplete JSON segment|^exception parsing stream chunk/.test(message)) {
    return new PartialStreamError(`The Gemini stream sent data that is not whole JSON: ${detail}`, {
      ...init,
      partial: context.partial,
    });
  }
  if (/fetch failed|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ECONNRESET/.test(detail)) {
    return new NetworkError(`Could not reach Gemini: ${detail}. Check baseURL and the network.`, init);
  }
  return new ProviderError(`The Gemini call failed: ${detail}`, { ...init, retryable: false });
}

function fromApiError(
  error: { status: number; message: string },
  clean: <T>(value: T) => T,
  cause: unknown,
  context: GoogleErrorContext,
): ProviderError {
  const body = clean(parseBody(error.message));
  const status = error.status;
  const code = body?.error?.status;
  const detail = clean(body?.error?.message ?? error.message);
  const where = error.message.startsWith('got status:') ? 'in the stream ' : '';
  const label = `Gemini failed ${where}with ${status}${code ? ` ${code}` : ''}: ${detail}`;
  // SDK status errors carry the body, which may echo the key: the cause is the redacted copy.
  const init: ProviderErrorInit = { provider, status, body: body ?? detail, cause };
  if (code) init.code = code;
  const reasons = (body?.error?.details ?? []).map((d) => (d as { reason?: unknown } | null)?.reason);
  if (status === 401 || status === 403 || reasons.includes('API_KEY_INVALID') || code === 'UNAUTHENTICATED') {
    return new AuthError(
      `${label}. Check the apiKey option or GEMINI_API_KEY (for Vertex AI: the credentials and project).`,
      { ...init, retryable: false },
    );
  }
  // `retry-after` when sent, else the body's `google.rpc.RetryInfo`.
  const wait = retryAfterMs({ headers: context.headers, body }, context.now ?? 0);
  if (status === 429) {
    return new RateLimitError(label, { ...init, ...(wait !== undefined && { retryAfterMs: wait }) });
  }
  if ((status === 400 || status === 413) && CONTEXT_OVERFLOW.some((re) => re.test(detail))) {
    return new ContextOverflowError(`${label}. The prompt does not fit the model's context window.`, {
      ...init,
      retryable: false,
    });
  }
  if (status === 503) {
    return new OverloadedError(label, { ...init, status, ...(wait !== undefined && { retryAfterMs: wait }) });
  }
  return new ProviderError(label, init);
}

/** The error body the SDK put in the message (after `got status: … .` for an in-stream error). */
function parseBody(message: string): GoogleErrorBody | undefined {
  const start = message.indexOf('{');
  if (start < 0) return undefined;
  try {
    const body = JSON.parse(message.slice(start)) as unknown;
    return typeof body === 'object' && body !== null ? body : undefined;
  } catch {
    return undefined;
  }
}

/** The SDK's `ApiError` (by name: a client passed in may come from another copy of the SDK). */
function isApiError(error: unknown): error is { status: number; message: string } {
  const e = error as { name?: unknown; status?: unknown; message?: unknown } | null;
  return e?.name === 'ApiError' && typeof e.status === 'number' && typeof e.message === 'string';
}
