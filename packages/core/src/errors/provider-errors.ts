import type { AssistantMessage } from '../messages/types.js';
import { ProviderError, type ProviderErrorInit } from './provider-error.js';

/**
 * HTTP 429. `retryAfterMs` comes from `retry-after-ms` / `retry-after` when the provider sent one.
 *
 * @example
 * throw new RateLimitError('Rate limit reached', { status: 429, retryAfterMs: 2000 });
 */
export class RateLimitError extends ProviderError {
  static override readonly kind: string = 'RateLimitError';
  readonly retryAfterMs?: number;
  constructor(message: string, init: ProviderErrorInit & { retryAfterMs?: number } = {}) {
    super(message, { status: 429, retryable: true, ...init });
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * The provider is overloaded (Anthropic 529 or an in-stream `overloaded_error`). Retryable.
 *
 * @example
 * throw new OverloadedError('Overloaded', { status: 529 });
 */
export class OverloadedError extends ProviderError {
  static override readonly kind: string = 'OverloadedError';
  readonly retryAfterMs?: number;
  constructor(message: string, init: ProviderErrorInit & { retryAfterMs?: number } = {}) {
    super(message, { retryable: true, ...init });
    this.retryAfterMs = init.retryAfterMs;
  }
}

/**
 * No response head in time (the SDK's request timeout). Retryable.
 *
 * @example
 * throw new ProviderTimeoutError('Request timed out after 600000 ms');
 */
export class ProviderTimeoutError extends ProviderError {
  static override readonly kind: string = 'ProviderTimeoutError';
  constructor(message: string, init: ProviderErrorInit = {}) {
    super(message, { retryable: true, ...init });
  }
}

/**
 * The response body went silent for longer than the adapter's `idleTimeoutMs`. Retryable.
 *
 * @example
 * throw new StreamIdleError('No data for 60000 ms', { idleMs: 60000 });
 */
export class StreamIdleError extends ProviderError {
  static override readonly kind: string = 'StreamIdleError';
  readonly idleMs?: number;
  readonly partial?: AssistantMessage;
  constructor(
    message: string,
    init: ProviderErrorInit & { idleMs?: number; partial?: AssistantMessage } = {},
  ) {
    super(message, { retryable: true, ...init });
    this.idleMs = init.idleMs;
    this.partial = init.partial;
  }
}

/**
 * The connection failed or was cut. Retryable.
 *
 * @example
 * throw new NetworkError('Connection refused', { cause });
 */
export class NetworkError extends ProviderError {
  static override readonly kind: string = 'NetworkError';
  constructor(message: string, init: ProviderErrorInit = {}) {
    super(message, { retryable: true, ...init });
  }
}

/**
 * The API key is missing or refused (401 / 403). Never retried.
 *
 * @example
 * throw new AuthError('OPENAI_API_KEY is not set: pass apiKey or set the variable.');
 */
export class AuthError extends ProviderError {
  static override readonly kind: string = 'AuthError';
  constructor(message: string, init: ProviderErrorInit = {}) {
    super(message, { retryable: false, ...init });
  }
}

/**
 * The prompt does not fit the model's context window. Not retried as is: `compactContext`
 * recovers from it once.
 *
 * @example
 * throw new ContextOverflowError('prompt is too long: 212345 tokens > 200000 maximum', { status: 400 });
 */
export class ContextOverflowError extends ProviderError {
  static override readonly kind: string = 'ContextOverflowError';
  constructor(message: string, init: ProviderErrorInit = {}) {
    super(message, { retryable: false, ...init });
  }
}

/**
 * The stream ended (or was cut) before its terminal event; `partial` is what had arrived.
 * Retryable: the partial message is discarded and the call made again.
 *
 * @example
 * throw new PartialStreamError('Stream ended without message_stop', { partial });
 */
export class PartialStreamError extends ProviderError {
  static override readonly kind: string = 'PartialStreamError';
  readonly partial?: AssistantMessage;
  constructor(message: string, init: ProviderErrorInit & { partial?: AssistantMessage } = {}) {
    super(message, { retryable: true, ...init });
    this.partial = init.partial;
  }
}
