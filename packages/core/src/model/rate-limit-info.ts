/**
 * One rate-limit figure as a provider reports it in its response headers: how many the window
 * allows, how many are left now, and how long until the figure is back at its limit.
 *
 * @example
 * const requests: RateLimitWindow = { limit: 500, remaining: 499, resetMs: 120 };
 */
export interface RateLimitWindow {
  /** The most the provider allows per window (per minute for OpenAI's and Anthropic's limits). */
  limit?: number;
  /** What is left now (after this request was counted). */
  remaining?: number;
  /** Milliseconds until the figure is back at `limit`. */
  resetMs?: number;
}

/**
 * What a provider said about its rate limits on one response: OpenAI's
 * `x-ratelimit-{limit,remaining,reset}-{requests,tokens}` and Anthropic's
 * `anthropic-ratelimit-{requests,input-tokens,output-tokens,tokens}-{limit,remaining,reset}`.
 * Only the figures the provider sent are set.
 *
 * @example
 * const info: RateLimitInfo = { requests: { limit: 500, remaining: 499 }, tokens: { limit: 30_000, remaining: 28_800 } };
 */
export interface RateLimitInfo {
  requests?: RateLimitWindow;
  /** Input tokens (Anthropic's `input-tokens`). */
  inputTokens?: RateLimitWindow;
  /** Output tokens (Anthropic's `output-tokens`). */
  outputTokens?: RateLimitWindow;
  /**
   * Tokens of any kind: OpenAI's `tokens` (input and output in one budget), Anthropic's
   * `tokens` (the most restrictive of its token limits).
   */
  tokens?: RateLimitWindow;
}
