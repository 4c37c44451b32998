import type { ContextManagerContext, ContextUsage, Message } from '@rxagent/core';
import type { ContextEngineSettings } from './context-engine-options.js';
import { fixedTokens, TokenTally } from './estimate-tokens.js';

/**
 * How full the context is: the estimate of a view's messages, plus the system prompt and the
 * tool definitions sent with every call, corrected by the input tokens the provider reported
 * for the view sent last. One per engine (it learns from that engine's calls).
 *
 * @example
 * const meter = new ContextMeter();
 * meter.begin(messages, context);
 * meter.tokens(meter.raw(messages, true)); // the transcript's tokens as the next call would send them
 */
export class ContextMeter {
  /** The view last sent and its estimate, to calibrate the estimate on the usage reported for it. */
  private sent?: { transcriptLength: number; estimate: number };
  /** Reported minus estimated tokens of the last view the provider reported on. */
  private correction = 0;
  private reported = 0;
  /** The system prompt and tool definitions sent with every call. */
  private fixed = 0;
  private tally = new TokenTally();

  /** Before a projection of `messages`: this call's fixed part, and what the last answer reported. */
  begin(messages: readonly Message[], context: ContextManagerContext): void {
    this.fixed = fixedTokens(context);
    const sent = this.sent;
    if (!sent) return;
    const answer = messages[sent.transcriptLength];
    if (answer?.role === 'assistant' && answer.usage.inputTokens > 0) {
      this.correction = answer.usage.inputTokens - sent.estimate - this.fixed;
      this.reported = answer.usage.inputTokens + answer.usage.outputTokens;
    }
  }

  /** The estimate of `messages` alone. `transcript`: the list is the (append-only) transcript. */
  raw(messages: readonly Message[], transcript = false): number {
    return this.tally.total(messages, transcript);
  }

  /** A call's tokens, from the estimate of its messages. */
  tokens(raw: number): number {
    return Math.max(0, raw + this.fixed + this.correction);
  }

  /** Records `view` (its messages' estimate: `viewRaw`) as the view sent for `messages`; its usage. */
  record(messages: readonly Message[], viewRaw: number, settings: ContextEngineSettings): ContextUsage {
    const tokens = this.tokens(viewRaw);
    const transcriptTokens = this.tokens(this.raw(messages, true));
    const { contextWindow, reserveTokens } = settings;
    const usageTokens = Math.min(this.reported, tokens);
    this.sent = { transcriptLength: messages.length, estimate: viewRaw };
    return {
      contextWindow,
      tokens,
      reserveTokens,
      percent: Math.round((tokens / contextWindow) * 10_000) / 100,
      usageTokens,
      estimatedTokens: tokens - usageTokens,
      transcriptTokens,
      droppedTokens: Math.max(0, transcriptTokens - tokens),
    };
  }

  /** Forgets the transcript (it was replaced from outside); keeps the calibration. */
  reset(): void {
    this.sent = undefined;
    this.tally = new TokenTally();
  }
}
