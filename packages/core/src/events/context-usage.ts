/**
 * How full the model's context is: the window, the tokens the last view holds (from the
 * provider's reported usage plus an estimate of what was appended since), what is reserved
 * for the answer, and what projections left out.
 *
 * @example
 * const usage: ContextUsage = {
 *   contextWindow: 128_000, tokens: 40_000, reserveTokens: 16_384, percent: 31.25,
 *   usageTokens: 38_000, estimatedTokens: 2_000, droppedTokens: 0, transcriptTokens: 40_000,
 * };
 */
export interface ContextUsage {
  contextWindow: number;
  /** Tokens of the context the next call sends. */
  tokens: number;
  /** Kept free for the answer: projection starts above `contextWindow - reserveTokens`. */
  reserveTokens: number;
  /** `tokens / contextWindow * 100`. */
  percent: number;
  /** Part of `tokens` the provider reported (0 when nothing was reported yet). */
  usageTokens: number;
  /** Part of `tokens` that is an estimate (messages appended after the last report). */
  estimatedTokens: number;
  /** Tokens of the whole transcript, before any projection. */
  transcriptTokens: number;
  /** `transcriptTokens - tokens`: what the projection left out (stubbed or summarized). */
  droppedTokens: number;
}
