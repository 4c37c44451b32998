import { ProviderError } from '../errors/provider-error.js';
import {
  AuthError,
  ContextOverflowError,
  NetworkError,
  OverloadedError,
  PartialStreamError,
  ProviderTimeoutError,
  RateLimitError,
  StreamIdleError,
} from '../errors/provider-errors.js';

/**
 * Why a model call may move to another provider (agentcore's `FailoverReason`).
 *
 * @example
 * const reason: FailoverReason = 'rate-limit';
 */
export type FailoverReason =
  'rate-limit' | 'overloaded' | 'stream-idle' | 'timeout' | 'network' | 'partial-stream' | 'server-error';

/**
 * The failover reason of an error, or `undefined` when another provider would not help:
 * auth failures and context overflows (the request itself is the problem), user aborts and
 * anything that is not a typed `ProviderError`. Stream-idle is checked before timeout: a stuck
 * connection is what failover rescues best.
 *
 * @example
 * failoverReason(new RateLimitError('Slow down')); // 'rate-limit'
 * failoverReason(new AuthError('Bad key'));        // undefined
 */
export function failoverReason(error: unknown): FailoverReason | undefined {
  if (!ProviderError.isInstance(error)) return undefined;
  const { status, retryable } = error;
  if (AuthError.isInstance(error) || ContextOverflowError.isInstance(error)) return undefined;
  if (RateLimitError.isInstance(error)) return 'rate-limit';
  if (OverloadedError.isInstance(error)) return 'overloaded';
  if (StreamIdleError.isInstance(error)) return 'stream-idle';
  if (ProviderTimeoutError.isInstance(error)) return 'timeout';
  if (NetworkError.isInstance(error)) return 'network';
  if (PartialStreamError.isInstance(error)) return 'partial-stream';
  if (status !== undefined && status >= 500 && retryable) return 'server-error';
  return undefined;
}

/**
 * True when `error` is worth trying on another provider (see `failoverReason`).
 *
 * @example
 * if (isFailoverEligible(err)) console.log('trying the next provider');
 */
export function isFailoverEligible(error: unknown): boolean {
  return failoverReason(error) !== undefined;
}
