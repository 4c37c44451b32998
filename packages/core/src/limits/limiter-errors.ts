import { AgentConfigError } from '../errors/agent-errors.js';
import { RxAgentError } from '../errors/rxagent-error.js';

/**
 * A limiter was configured with figures it cannot work with (0, negative or not a number), or
 * its `estimateTokens` returned something that is not a token count. The message names the
 * option and what to write instead.
 *
 * @example
 * try { limiter({ requestsPerMinute: 0 }); } catch (e) { if (LimiterConfigError.isInstance(e)) console.error(e.message); }
 */
export class LimiterConfigError extends AgentConfigError {
  static override readonly kind: string = 'LimiterConfigError';
}

/**
 * One model call needs more than the limiter can ever admit: its estimated input tokens are
 * more than the per-minute budget (as configured, or as the provider's headers lowered it).
 * Waiting would never help, so the call fails at once (not retryable).
 *
 * @example
 * run$.subscribe({ error: (e) => RequestTooLargeError.isInstance(e) && console.error(e.tokens, e.perMinute) });
 */
export class RequestTooLargeError extends RxAgentError {
  static override readonly kind: string = 'RequestTooLargeError';
  constructor(
    /** The call's estimated input tokens. */
    readonly tokens: number,
    /** The input-token budget per minute it exceeds. */
    readonly perMinute: number,
  ) {
    super(
      `This model call needs about ${tokens} input tokens, more than the ${perMinute} input tokens per ` +
        'minute the limiter allows, so it could never be admitted. Raise inputTokensPerMinute (to what ' +
        'the provider grants), or make the request smaller (compactContext, fewer tools).',
    );
  }
}
