import type { SchedulerLike } from 'rxjs';
import type { ChatRequest } from '../model/chat-model.js';
import { LimiterConfigError } from './limiter-errors.js';

/**
 * Options of `limiter`. Give the figures your provider grants (or less, to leave room for
 * other clients of the same key); every figure left out is not limited.
 *
 * @example
 * const options: LimiterOptions = { requestsPerMinute: 500, inputTokensPerMinute: 30_000, concurrency: 8 };
 */
export interface LimiterOptions {
  /** Model calls started per minute. */
  requestsPerMinute?: number;
  /** Input tokens per minute (estimated before each call, corrected by its reported usage). */
  inputTokensPerMinute?: number;
  /** Output tokens per minute (charged as calls report them; none is admitted while spent). */
  outputTokensPerMinute?: number;
  /** Model calls in flight at once. */
  concurrency?: number;
  /**
   * A call's input tokens before it is sent (default: its characters / 4,
   * `estimateRequestTokens`). Pass the context engine's estimate when you have one.
   */
  estimateTokens?: (request: ChatRequest) => number;
  /**
   * Follow the provider's rate-limit headers (the `rate-limit` model event): a lower limit
   * and what is left now replace the limiter's own figures (default true).
   */
  followHeaders?: boolean;
  /** Where the limiter's warnings go (each is given once); default `console.warn`. */
  onWarning?: (message: string) => void;
  /** The clock and timers of the budgets and pauses (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
}

const shown = (value: unknown): string =>
  typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? typeof value);

const FIGURES = [
  'requestsPerMinute',
  'inputTokensPerMinute',
  'outputTokensPerMinute',
  'concurrency',
] as const;

/**
 * Checks a limiter's options: every figure given must be a positive number (`concurrency` a
 * positive integer, `Infinity` allowed for none), and at least one must be given.
 *
 * @example
 * validateLimiterOptions({ requestsPerMinute: 0 }); // throws LimiterConfigError
 */
export function validateLimiterOptions(options: LimiterOptions): void {
  if (typeof options !== 'object' || options === null) {
    throw new LimiterConfigError(
      'limiter needs its figures: limiter({ requestsPerMinute: 500, inputTokensPerMinute: 30_000 }).',
    );
  }
  for (const name of FIGURES) {
    const value = options[name] as unknown;
    if (value === undefined) continue;
    const integer = name === 'concurrency';
    const valid =
      typeof value === 'number' &&
      value > 0 &&
      (value === Infinity || (Number.isFinite(value) && (!integer || Number.isInteger(value))));
    if (!valid) {
      throw new LimiterConfigError(
        `limiter: ${name} must be a positive ${integer ? 'whole number' : 'number'}, got ${shown(value)}. ` +
          'Leave it out for no limit; a limit of 0 would never admit a call.',
      );
    }
  }
  if (FIGURES.every((name) => options[name] === undefined)) {
    throw new LimiterConfigError(
      'limiter was given no figure, so it would limit nothing: give at least one of ' +
        'requestsPerMinute, inputTokensPerMinute, outputTokensPerMinute, concurrency.',
    );
  }
  if (options.estimateTokens !== undefined && typeof options.estimateTokens !== 'function') {
    throw new LimiterConfigError('limiter: estimateTokens must be a function (request) => tokens.');
  }
}

/**
 * A call's estimated input tokens, checked: a whole number of 0 or more.
 *
 * @example
 * checkedTokens(12.2, 'estimateTokens'); // 13
 */
export function checkedTokens(value: unknown, source: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new LimiterConfigError(
      `limiter: ${source} gave ${String(value)} input tokens for a call; it must return a number of 0 or more.`,
    );
  }
  return Math.ceil(value);
}
