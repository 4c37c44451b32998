/**
 * One per-minute budget of a limiter, as it stands.
 *
 * @example
 * const tokens: LimiterBudget = { perMinute: 30_000, available: 12_400 };
 */
export interface LimiterBudget {
  /** The budget in force: as configured, or lower when the provider's headers said so. */
  perMinute: number;
  /** What is left now (rounded down; negative while a call's real usage is being paid back). */
  available: number;
}

/**
 * What a limiter is doing, for dashboards (`limiter.state$`). A budget is absent when it is
 * not limited.
 *
 * @example
 * limits.state$.subscribe((s) => console.log(`${s.inFlight} in flight, ${s.queued.interactive + s.queued.background} waiting`));
 */
export interface LimiterState {
  /** Calls waiting for admission, by priority. */
  queued: { interactive: number; background: number };
  /** Calls admitted and not ended yet (each holds a concurrency slot). */
  inFlight: number;
  /** The most calls in flight at once (absent: not limited). */
  concurrency?: number;
  requests?: LimiterBudget;
  inputTokens?: LimiterBudget;
  outputTokens?: LimiterBudget;
  /** Scheduler time until which nothing is admitted (a 429's retry-after), while it lasts. */
  pausedUntil?: number;
  /** Calls admitted since the limiter was made. */
  admitted: number;
  /** Calls that got a 429 since the limiter was made. */
  rateLimited: number;
  /** Every warning given (each once). */
  warnings: readonly string[];
}
