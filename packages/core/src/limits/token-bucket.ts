/** Levels are kept in token·ms per minute (tokens × 60,000), so a refill is an integer step. */
const MS_PER_MINUTE = 60_000;

/**
 * One per-minute budget of a limiter (requests, input tokens or output tokens): a bucket that
 * holds at most `perMinute` and refills continuously at `perMinute` per minute, as the
 * providers' own limits do. It may go below zero when a call turns out to have used more than
 * was charged for it (a debt the refill pays back before anything else is admitted). Time is
 * passed in (the limiter's scheduler), never read.
 *
 * @example
 * const bucket = new TokenBucket(60, scheduler.now());
 * bucket.waitMs(1, scheduler.now()); // 0: a full bucket
 */
export class TokenBucket {
  /** The budget per minute in force: the configured one, or lower when the provider said so. */
  perMinute: number;
  private level: number;
  private at: number;

  constructor(
    /** The budget per minute as configured (headers may lower `perMinute`, never raise it). */
    readonly configured: number,
    now: number,
  ) {
    this.perMinute = configured;
    this.level = configured * MS_PER_MINUTE;
    this.at = now;
  }

  /** What is available at `now` (negative while in debt). */
  available(now: number): number {
    this.refill(now);
    return this.level / MS_PER_MINUTE;
  }

  /** How long until `need` is available (0 when it is now). */
  waitMs(need: number, now: number): number {
    this.refill(now);
    const missing = need * MS_PER_MINUTE - this.level;
    return missing <= 0 ? 0 : Math.ceil(missing / this.perMinute);
  }

  /** Takes `amount` (a negative amount gives back, up to the budget). */
  take(amount: number, now: number): void {
    this.refill(now);
    this.level = Math.min(this.level - amount * MS_PER_MINUTE, this.perMinute * MS_PER_MINUTE);
  }

  /** The provider says only `remaining` is left: never hold more than that. */
  clampTo(remaining: number, now: number): void {
    this.refill(now);
    this.level = Math.min(this.level, remaining * MS_PER_MINUTE);
  }

  /** The provider's limit is lower than ours: use it. */
  lowerLimit(limit: number, now: number): void {
    if (!(limit > 0) || limit >= this.perMinute) return;
    this.refill(now);
    this.perMinute = limit;
    this.level = Math.min(this.level, limit * MS_PER_MINUTE);
  }

  /** Nothing left (a 429 without retry-after): the refill decides when the next call goes. */
  empty(now: number): void {
    this.refill(now);
    this.level = Math.min(this.level, 0);
  }

  private refill(now: number): void {
    if (now > this.at) {
      this.level = Math.min(this.perMinute * MS_PER_MINUTE, this.level + (now - this.at) * this.perMinute);
      this.at = now;
    }
  }
}
