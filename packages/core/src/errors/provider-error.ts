import { RxAgentError } from './rxagent-error.js';

/**
 * What a provider error carries besides its message.
 *
 * @example
 * throw new ProviderError('Rate limited', { status: 429, provider: 'openai', requestId: 'req_1' });
 */
export interface ProviderErrorInit {
  status?: number;
  code?: string;
  body?: unknown;
  retryable?: boolean;
  provider?: string;
  requestId?: string;
  cause?: unknown;
}

/**
 * A failed model call. Adapters throw a subclass per kind of failure; `retryable` says
 * whether `llmStep` may try again (it follows `x-should-retry`, else 408, 409, 429, 5xx,
 * 529, network, idle and partial streams).
 *
 * @example
 * if (ProviderError.isInstance(err) && !err.retryable) console.error(err.status, err.body);
 */
export class ProviderError extends RxAgentError {
  static override readonly kind: string = 'ProviderError';
  readonly status?: number;
  readonly code?: string;
  readonly body?: unknown;
  readonly retryable: boolean;
  readonly provider?: string;
  readonly requestId?: string;

  constructor(message: string, init: ProviderErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.body = init.body;
    this.retryable = init.retryable ?? isRetryableStatus(init.status);
    this.provider = init.provider;
    this.requestId = init.requestId;
  }
}

/**
 * The providers' retry rule for an HTTP status: 408, 409, 429 and 5xx (529 included).
 *
 * @example
 * isRetryableStatus(503); // true
 */
export function isRetryableStatus(status: number | undefined): boolean {
  if (status === undefined) return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
