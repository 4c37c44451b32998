import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import {
  NetworkError,
  PartialStreamError,
  ProviderError,
  ProviderTimeoutError,
  RxAgentError,
} from '@rxagent/core';
import { redactSecret } from '@rxagent/core/provider';
import { describeError, isConnectionCut, secretFreeCause } from '@rxagent/core/provider';
import type { AssistantMessage } from '@rxagent/core';
import { classifyErrorPayload } from './classify-error-payload.js';

/**
 * The `error` object of an OpenAI error body or in-stream error event.
 *
 * @example
 * const payload: OpenAIErrorPayload = { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' };
 */
export interface OpenAIErrorPayload {
  message?: unknown;
  code?: unknown;
  type?: unknown;
  param?: unknown;
}

/**
 * An error the server reported inside a 200 stream that the SDK yields instead of throwing
 * (the flat Responses `error` event, `response.failed`). Classified like the others.
 *
 * @example
 * throw new InStreamError({ code: 'server_error', message: 'The server had an error' });
 */
export class InStreamError extends Error {
  constructor(readonly payload: OpenAIErrorPayload) {
    super(typeof payload.message === 'string' ? payload.message : 'OpenAI stream error');
  }
}

/**
 * What the classifier knows about the call that failed.
 *
 * @example
 * const ctx: ErrorContext = { now: scheduler.now(), modelId: 'gpt-4o', received: true, partial: (why) => draft.partial(why) };
 */
export interface ErrorContext {
  /** The scheduler's clock, for `retry-after` dates. */
  now: number;
  modelId: string;
  /** The API key, removed from every message and body. */
  secret?: string;
  /** Whether any chunk of the body had arrived. */
  received: boolean;
  /** The message as far as it arrived. */
  partial: (why: string) => AssistantMessage;
}

/**
 * Turns anything the `openai` client (or a stream) threw into one typed rxagent error:
 * HTTP status errors, in-stream error events, connection failures, timeouts and cuts.
 *
 * @example
 * const error = classifyOpenAIError(sdkError, { now: Date.now(), modelId: 'gpt-4o', received: false, partial });
 * if (RateLimitError.isInstance(error)) console.log(error.retryAfterMs);
 */
export function classifyOpenAIError(error: unknown, ctx: ErrorContext): RxAgentError {
  if (RxAgentError.isInstance(error)) return error;
  if (error instanceof InStreamError) return classifyErrorPayload(error.payload, ctx);
  if (error instanceof APIConnectionTimeoutError) {
    return new ProviderTimeoutError(
      'No response from the OpenAI API before the request timeout. Raise requestTimeoutMs or try again.',
      { provider: 'openai', cause: secretFreeCause(error, ctx.secret) },
    );
  }
  if (error instanceof APIConnectionError) {
    return new NetworkError(
      redactSecret(
        `Could not reach the OpenAI API: ${describeError(error)}. Check baseURL and the network.`,
        ctx.secret,
      ),
      { provider: 'openai', cause: secretFreeCause(error.cause, ctx.secret) },
    );
  }
  if (isApiError(error)) {
    const payload = (error.error ?? { message: error.message }) as OpenAIErrorPayload;
    return classifyErrorPayload(payload, ctx, {
      status: error.status,
      headers: error.headers,
      requestId: error.requestID ?? undefined,
    });
  }
  if (isConnectionCut(error)) {
    const why = `The OpenAI stream was cut mid-response (${describeError(error)})`;
    if (!ctx.received) {
      return new NetworkError(`${why} before any data arrived.`, {
        provider: 'openai',
        cause: secretFreeCause(error, ctx.secret),
      });
    }
    return new PartialStreamError(`${why}; the partial message is attached.`, {
      provider: 'openai',
      partial: ctx.partial(why),
      cause: secretFreeCause(error, ctx.secret),
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  if ((error as { name?: unknown } | null)?.name === 'SyntaxError') {
    // A garbled chunk is a broken stream, as in the Anthropic adapter: retried with the partial kept.
    return new PartialStreamError(
      redactSecret(`The OpenAI stream sent data that is not JSON: ${message}`, ctx.secret),
      { provider: 'openai', partial: ctx.partial('not JSON'), cause: secretFreeCause(error, ctx.secret) },
    );
  }
  return new ProviderError(redactSecret(`The OpenAI call failed: ${message}`, ctx.secret), {
    provider: 'openai',
    retryable: false,
    cause: secretFreeCause(error, ctx.secret),
  });
}

// A guard rather than `instanceof` so the SDK's generic defaults apply instead of `any`.
function isApiError(error: unknown): error is APIError {
  return error instanceof APIError;
}
