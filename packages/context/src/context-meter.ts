import type { ContextManagerContext, ContextUsage } from '@rxagent/core/context';
import type { Message } from '@rxagent/core';
import type { ToolSpec } from '@rxagent/core/provider';
import type { ContextEngineSettings } from './context-engine-options.js';
import { contextUsageOf } from './context-usage-of.js';
import { systemTokens, toolTokens } from './estimate-tokens.js';

/**
 * How full the context is: the estimate of a view's messages, plus the system prompt and the
 * tool definitions sent with every call, corrected by the input tokens the provider reported
 * for the view sent last. One per engine (it learns from that engine's calls).
 *
 * @example
 * const meter = new ContextMeter();
 * meter.begin(messages, context);
 * meter.tokens(ledger.tokens()); // the transcript's tokens as the next call would send them
 */
export class ContextMeter {
  /** The view last sent and its estimate, to calibrate the estimate on the usage reported for it. */
  private sent?: { transcriptLength: number; estimate: number };
  /** Reported minus estimated tokens of the last view the provider reported on. */
  private correction = 0;
  private reported = 0;
  /** The system prompt and tool definitions sent with every call. */
  private fixed = 0;
  /** The tool list of the last call and its size (the same list is not measured again). */
  private tools?: { list: readonly ToolSpec[]; length: number; tokens: number };

  /** Before a projection of `messages`: this call's fixed part, and what the last answer reported. */
  begin(messages: readonly Message[], context: ContextManagerContext): void {
    this.fixed = systemTokens(context.system) + this.toolTokens(context.tools);
    const sent = this.sent;
    if (!sent) return;
    const answer = messages[sent.transcriptLength];
    if (answer?.role === 'assistant' && answer.usage.inputTokens > 0) {
      this.correction = answer.usage.inputTokens - sent.estimate - this.fixed;
      this.reported = answer.usage.inputTokens + answer.usage.outputTokens;
    }
  }

  /** The system prompt and tool definitions of the current call. */
  get fixedTokens(): number {
    return this.fixed;
  }

  /** A call's tokens, from the estimate of its messages. */
  tokens(raw: number): number {
    return Math.max(0, raw + this.fixed + this.correction);
  }

  /**
   * Records a view (its messages' estimate: `viewRaw`) as the one sent for a transcript of
   * `transcriptLength` messages (estimate: `transcriptRaw`); its usage.
   */
  record(
    transcriptLength: number,
    transcriptRaw: number,
    viewRaw: number,
    settings: ContextEngineSettings,
  ): ContextUsage {
    this.sent = { transcriptLength, estimate: viewRaw };
    return this.usage(this.tokens(viewRaw), this.tokens(transcriptRaw), settings);
  }

  /** How full the context is with a call of `tokens`, out of a transcript of `transcriptTokens`. */
  usage(tokens: number, transcriptTokens: number, settings: ContextEngineSettings): ContextUsage {
    return contextUsageOf(settings, tokens, transcriptTokens, this.reported);
  }

  /** Forgets the transcript (it was replaced from outside); keeps the calibration. */
  reset(): void {
    this.sent = undefined;
  }

  private toolTokens(list: readonly ToolSpec[] | undefined): number {
    if (!list) return 0;
    const known = this.tools;
    if (known?.list === list && known.length === list.length) return known.tokens;
    const tokens = toolTokens(list);
    this.tools = { list, length: list.length, tokens };
    return tokens;
  }
}
