import type { ContextManagerContext, ContextUsage } from '@rxagent/core/context';
import type { Message } from '@rxagent/core';
import type { ToolSpec } from '@rxagent/core/provider';
import type { ContextEngineSettings } from './context-engine-options.js';
import { contextUsageOf } from './context-usage-of.js';
import type { MeterState } from './engine-state.js';
import { systemTokens, toolTokens } from './estimate-tokens.js';

/**
 * The size of the tool list last measured (a value cache: the same list is not measured again).
 *
 * @example
 * const cache: ToolTokenCache = {};
 */
export interface ToolTokenCache {
  known?: { list: readonly ToolSpec[]; length: number; tokens: number };
}

/**
 * How full the context is: the estimate of a view's messages, plus the system prompt and the
 * tool definitions sent with every call, corrected by the input tokens the provider reported
 * for the view sent last. One per piece of work, from the run's `MeterState` (it learns from
 * the run's calls; `state()` is what it learnt).
 *
 * @example
 * const meter = new ContextMeter(saved.meter, toolCache);
 * meter.begin(messages, context);
 * meter.tokens(ledger.tokens()); // the transcript's tokens as the next call would send them
 */
export class ContextMeter {
  /** The view last sent and its estimate, to calibrate the estimate on the usage reported for it. */
  private sent?: { transcriptLength: number; estimate: number };
  /** Reported minus estimated tokens of the last view the provider reported on. */
  private correction: number;
  private reported: number;
  /** The system prompt and tool definitions sent with every call. */
  private fixed = 0;

  constructor(
    saved: MeterState | undefined,
    private readonly tools: ToolTokenCache = {},
  ) {
    this.sent = saved?.sent;
    this.correction = saved?.correction ?? 0;
    this.reported = saved?.reported ?? 0;
  }

  /** What the meter learnt, as plain JSON. */
  state(): MeterState {
    return {
      ...(this.sent ? { sent: { ...this.sent } } : {}),
      correction: this.correction,
      reported: this.reported,
    };
  }

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

  private toolTokens(list: readonly ToolSpec[] | undefined): number {
    if (!list) return 0;
    const known = this.tools.known;
    if (known?.list === list && known.length === list.length) return known.tokens;
    const tokens = toolTokens(list);
    this.tools.known = { list, length: list.length, tokens };
    return tokens;
  }
}
