import type { Usage } from '../messages/types.js';
import type { RateLimitInfo, RateLimitWindow } from '../model/rate-limit-info.js';
import type { TokenBucket } from './token-bucket.js';

/**
 * One admitted call's hold on a limiter: what it reports back while it runs, and its end.
 * `rateLimited` wrappers use it; use it directly to put other calls under the same budget.
 *
 * @example
 * limits.acquire({ inputTokens: 1_200, key: runId }).subscribe((lease) => {
 *   callSomething().then((usage) => lease.usage(usage)).finally(() => lease.release(true));
 * });
 */
export interface LimiterLease {
  /** Admission order (1-based). */
  readonly id: number;
  /** The call's usage so far (figures are totals, not increments): corrects the charged budgets. */
  usage(usage: Partial<Pick<Usage, 'inputTokens' | 'outputTokens'>>): void;
  /** What the provider's headers said on this call (`ignored`: headers it could not read). */
  headers(limits: RateLimitInfo, ignored?: readonly string[]): void;
  /**
   * The call got a 429: with a retry-after, nothing is admitted for that long (every run
   * waits, not only this one); without one, the request and input budgets are emptied.
   */
  rateLimited(retryAfterMs?: number): void;
  /** Ends the hold (frees its concurrency slot); `completed`: the call ended normally. Idempotent. */
  release(completed?: boolean): void;
}

/**
 * What a lease needs of its limiter.
 *
 * @example
 * const host: LeaseHost = { now: () => scheduler.now(), buckets, followHeaders: true, … };
 */
export interface LeaseHost {
  now(): number;
  readonly requests?: TokenBucket;
  readonly input?: TokenBucket;
  readonly output?: TokenBucket;
  readonly followHeaders: boolean;
  /** Leases in flight admitted after `lease` that have not seen headers yet. */
  laterWithoutHeaders(lease: Lease): readonly Lease[];
  pause(ms: number): void;
  countRateLimited(): void;
  warnOnce(topic: 'ignored' | 'missing', message: string): void;
  changed(): void;
  released(lease: Lease): void;
}

/**
 * A `LimiterLease`: charged the call's request and estimated input tokens at admission,
 * corrected by the usage it reports.
 *
 * @example
 * const lease = new Lease(host, 1, 1_200);
 */
export class Lease implements LimiterLease {
  sawHeaders = false;
  private ended = false;
  private outputCharged = 0;

  constructor(
    private readonly host: LeaseHost,
    readonly id: number,
    /** The input tokens charged so far (the estimate, then the reported figure). */
    public inputCharged: number,
  ) {}

  usage(usage: Partial<Pick<Usage, 'inputTokens' | 'outputTokens'>>): void {
    if (this.ended || typeof usage !== 'object' || usage === null) return;
    const now = this.host.now();
    const { inputTokens, outputTokens } = usage;
    if (isCount(inputTokens) && inputTokens !== this.inputCharged) {
      this.host.input?.take(inputTokens - this.inputCharged, now);
      this.inputCharged = inputTokens;
    }
    if (isCount(outputTokens) && outputTokens !== this.outputCharged) {
      this.host.output?.take(outputTokens - this.outputCharged, now);
      this.outputCharged = outputTokens;
    }
    this.host.changed();
  }

  headers(limits: RateLimitInfo, ignored?: readonly string[]): void {
    if (this.ended) return;
    if (ignored && ignored.length > 0) {
      this.host.warnOnce(
        'ignored',
        `The provider sent rate-limit headers that could not be read (${ignored.join(', ')}); ` +
          'the limiter ignores them and goes by its own figures.',
      );
    }
    const { host } = this;
    if (!host.followHeaders || typeof limits !== 'object' || limits === null) return;
    this.sawHeaders = true;
    // The provider counted this call; the calls admitted after it may not have reached it yet.
    const later = host.laterWithoutHeaders(this);
    const now = host.now();
    follow(host.requests, limits.requests, later.length, now);
    follow(host.input, limits.inputTokens ?? limits.tokens, sum(later), now);
    follow(host.output, limits.outputTokens, 0, now);
    host.changed();
  }

  rateLimited(retryAfterMs?: number): void {
    if (this.ended) return;
    const { host } = this;
    host.countRateLimited();
    if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs > 0) {
      host.pause(retryAfterMs);
    } else {
      const now = host.now();
      host.requests?.empty(now);
      host.input?.empty(now);
    }
    host.changed();
  }

  release(completed = false): void {
    if (this.ended) return;
    this.ended = true;
    if (completed && !this.sawHeaders && this.host.followHeaders) {
      this.host.warnOnce(
        'missing',
        'A model call through the limiter ended without rate-limit headers, so the limiter goes by ' +
          'its own figures. Pass followHeaders: false for models that send none (local servers).',
      );
    }
    this.host.released(this);
  }
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function sum(leases: readonly Lease[]): number {
  let n = 0;
  for (const lease of leases) n += lease.inputCharged;
  return n;
}

function follow(
  bucket: TokenBucket | undefined,
  window: RateLimitWindow | undefined,
  pending: number,
  now: number,
) {
  if (!bucket || !window) return;
  if (isCount(window.limit)) bucket.lowerLimit(window.limit, now);
  if (isCount(window.remaining)) bucket.clampTo(window.remaining - pending, now);
}
