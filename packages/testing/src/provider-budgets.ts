/**
 * One per-minute budget as the fake provider keeps it: at most `limit`, refilled continuously
 * at `limit` per minute (what OpenAI documents, and close enough to Anthropic's).
 */
class Budget {
  private level: number;
  private at: number;

  constructor(
    readonly limit: number,
    now: number,
  ) {
    this.level = limit;
    this.at = now;
  }

  /** What is left at `now`. */
  remaining(now: number): number {
    if (now > this.at) {
      this.level = Math.min(this.limit, this.level + ((now - this.at) * this.limit) / 60_000);
      this.at = now;
    }
    return this.level;
  }

  /** Ms until `need` is left (0: now; Infinity: never, more than the limit). */
  waitMs(need: number, now: number): number {
    if (need > this.limit) return Infinity;
    const missing = need - this.remaining(now);
    return missing <= 0 ? 0 : Math.ceil((missing * 60_000) / this.limit);
  }

  take(amount: number, now: number): void {
    this.remaining(now);
    this.level -= amount;
  }

  /** Ms until the budget is full again. */
  resetMs(now: number): number {
    return Math.max(0, Math.ceil(((this.limit - this.remaining(now)) * 60_000) / this.limit));
  }
}

/**
 * One budget's figures as the rate-limit headers send them.
 *
 * @example
 * const figures: BudgetFigures = { limit: 600, remaining: 450, resetMs: 15_000 };
 */
export interface BudgetFigures {
  limit: number;
  remaining: number;
  resetMs: number;
}

/**
 * The fake provider's verdict on one request.
 *
 * @example
 * const verdict = budgets.admit(1_200, 40, clock.now());
 * if (!verdict.ok) console.log(`429 for ${verdict.budget}, retry in ${verdict.retryAfterMs} ms`);
 */
export type BudgetVerdict =
  { ok: true } | { ok: false; budget: 'requests' | 'input tokens' | 'output tokens'; retryAfterMs: number };

/**
 * The per-minute budgets of the fake provider: requests, input tokens and output tokens (each
 * optional). A request is served when one request, its input tokens and at least one output
 * token are left; it is then charged its input and output tokens at once.
 *
 * @example
 * const budgets = new ProviderBudgets({ requestsPerMinute: 60, inputTokensPerMinute: 10_000 }, clock.now());
 */
export class ProviderBudgets {
  readonly requests?: Budget;
  readonly input?: Budget;
  readonly output?: Budget;

  constructor(
    limits: { requestsPerMinute?: number; inputTokensPerMinute?: number; outputTokensPerMinute?: number },
    now: number,
  ) {
    const budget = (limit: number | undefined) => (limit === undefined ? undefined : new Budget(limit, now));
    this.requests = budget(limits.requestsPerMinute);
    this.input = budget(limits.inputTokensPerMinute);
    this.output = budget(limits.outputTokensPerMinute);
  }

  admit(inputTokens: number, outputTokens: number, now: number): BudgetVerdict {
    const waits = [
      ['requests', this.requests?.waitMs(1, now) ?? 0],
      ['input tokens', this.input?.waitMs(inputTokens, now) ?? 0],
      ['output tokens', this.output?.waitMs(1, now) ?? 0],
    ] as const;
    let worst: (typeof waits)[number] | undefined;
    for (const wait of waits) if (wait[1] > 0 && (!worst || wait[1] > worst[1])) worst = wait;
    if (worst) return { ok: false, budget: worst[0], retryAfterMs: worst[1] };
    this.requests?.take(1, now);
    this.input?.take(inputTokens, now);
    this.output?.take(outputTokens, now);
    return { ok: true };
  }

  /** The figures of each limited budget at `now`. */
  figures(now: number): {
    requests?: BudgetFigures;
    inputTokens?: BudgetFigures;
    outputTokens?: BudgetFigures;
  } {
    const of = (b: Budget | undefined): BudgetFigures | undefined =>
      b && { limit: b.limit, remaining: Math.max(0, Math.floor(b.remaining(now))), resetMs: b.resetMs(now) };
    return { requests: of(this.requests), inputTokens: of(this.input), outputTokens: of(this.output) };
  }
}
