import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { AssistantMessage, FinishReason, ModelEvent } from '@rxagent/core';
import type { ChunkMapper } from '@rxagent/core/provider';
import { AnthropicBlocks, type StartBlock } from './anthropic-block-events.js';
import { blocksToContent } from './anthropic-content-blocks.js';
import { anthropicStreamError } from './anthropic-error.js';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
import { mapAnthropicUsage, updateTokenCounts, type AnthropicTokenCounts } from './map-anthropic-usage.js';

/**
 * What the mapper accepts: the SDK's raw stream events, plus `ping` and `error`, which the SDK
 * normally filters out or throws but a custom client or middleware may pass through.
 *
 * @example
 * const event: AnthropicStreamEvent = { type: 'content_block_stop', index: 0 };
 */
export type AnthropicStreamEvent =
  RawMessageStreamEvent | { type: 'ping' } | { type: 'error'; error?: { type?: string; message?: string } };

/**
 * Folds one Anthropic Messages stream into `ModelEvent`s. Stateful: make one per request.
 * The event `index` is the part's position in the finished message (blocks that never show,
 * like empty text, take none). Server tools' blocks and their results become provider parts
 * (sent back verbatim), redacted thinking arrives as a whole part, citations are kept on their
 * text part, and content that `message_start` already carries (programmatic tool calling,
 * with its `stop_reason`) is mapped like streamed blocks. `message_stop` yields `usage` then
 * `finish` with the complete message, whose `providerMetadata` keeps the code-execution
 * `container`, `context_management` and a refusal's `stop_details`; after a `pause_turn` it yields nothing and sets
 * `paused` instead, so the model can continue the turn with `resume()`. `ping` is ignored;
 * an `error` event throws the matching typed provider error.
 *
 * @example
 * const mapper = new AnthropicEventMapper('claude-sonnet-4-6', scheduler.now());
 * for await (const event of stream) for (const out of mapper.map(event)) subscriber.next(out);
 * if (!mapper.finished) subscriber.error(new PartialStreamError('cut', { partial: mapper.partial() }));
 */
export class AnthropicEventMapper implements ChunkMapper<AnthropicStreamEvent> {
  /** True once any event arrived. */
  received = false;
  /** True once `message_stop` arrived (and `finish` was emitted). */
  finished = false;
  /** True once a `pause_turn` stop arrived: the turn goes on with another request. */
  paused = false;
  private readonly blocks: AnthropicBlocks;
  private responseId = '';
  private model: string;
  private stopReason: FinishReason | undefined;
  private rawStopReason: string | undefined;
  private tokens: AnthropicTokenCounts = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  // Earlier requests of a paused turn: their usage, and where their block indices end.
  private banked: AnthropicTokenCounts = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
  private blockBase = 0;
  private readonly metadata: Record<string, unknown> = {};

  /**
   * @param modelId The model asked for (until `message_start` names the one that answered).
   * @param timestamp The message's `timestamp`.
   * @param secrets Credentials to keep out of the error an `error` event becomes.
   * @param textTools Free-form tools (string parameters), declared to Anthropic as `{ input }`
   *   objects: their calls' arguments are unwrapped back to the string.
   */
  constructor(
    modelId: string,
    private readonly timestamp: number,
    private readonly secrets: readonly string[] = [],
    textTools: ReadonlySet<string> = new Set(),
  ) {
    this.model = modelId;
    this.blocks = new AnthropicBlocks(textTools);
  }

  /** `message_stop` arrived: the message (or, paused, this request's part of it) is complete. */
  get terminated(): boolean {
    return this.finished;
  }

  /** Nothing after `message_stop` is read. */
  get done(): boolean {
    return this.finished;
  }

  /** The closing events: a paused turn that is not continued ends as it stands; else none (`finish` came with `message_stop`). */
  flush(): ModelEvent[] {
    return this.paused ? this.endPaused() : [];
  }

  /** After `paused`: the next request's events continue the same message. */
  resume(): void {
    this.paused = false;
    this.finished = false;
    this.blockBase = Math.max(this.blockBase, this.blocks.end);
    this.banked = sumCounts(this.banked, this.tokens);
    this.tokens = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };
    this.stopReason = undefined;
    this.rawStopReason = undefined;
  }

  /** Ends a paused turn that will not be continued: `usage` and `finish` as it stands. */
  endPaused(): ModelEvent[] {
    this.paused = false;
    const message = this.message('stop');
    return [
      { type: 'usage', usage: message.usage },
      { type: 'finish', reason: message.stopReason, message },
    ];
  }

  /** The message so far as it goes back to Anthropic to continue a paused turn. */
  pausedMessage(): AssistantMessage {
    return this.message('stop');
  }

  /** The events one stream event amounts to (often none). */
  map(event: AnthropicStreamEvent): ModelEvent[] {
    this.received = true;
    switch (event.type) {
      case 'message_start':
        this.responseId ||= event.message.id ?? '';
        if (event.message.model) this.model = event.message.model;
        updateTokenCounts(this.tokens, event.message.usage);
        if (event.message.stop_reason) this.noteStop(event.message.stop_reason);
        return this.startContent(event.message.content ?? []);
      case 'content_block_start':
        return this.blocks.start(this.blockBase + event.index, event.content_block);
      case 'content_block_delta':
        return this.blocks.delta(this.blockBase + event.index, event.delta);
      case 'content_block_stop':
        return this.blocks.stop(this.blockBase + event.index);
      case 'message_delta': {
        if (event.delta?.stop_reason) this.noteStop(event.delta.stop_reason);
        updateTokenCounts(this.tokens, event.usage);
        const { container, stop_details } = event.delta as { container?: unknown; stop_details?: unknown };
        if (container) this.metadata.container = container;
        if (stop_details) this.metadata.stopDetails = stop_details;
        const { context_management } = event as { context_management?: unknown };
        if (context_management) this.metadata.contextManagement = context_management;
        return [];
      }
      case 'message_stop': {
        this.finished = true;
        if (this.rawStopReason === 'pause_turn') {
          this.paused = true;
          return [];
        }
        const message = this.message(this.stopReason ?? 'stop');
        return [
          { type: 'usage', usage: message.usage },
          { type: 'finish', reason: message.stopReason, message },
        ];
      }
      case 'ping':
        return [];
      case 'error':
        throw anthropicStreamError(event, this.secrets);
      default: {
        const _unknown: never = event;
        return [];
      }
    }
  }

  /** The message as far as it arrived, for a `PartialStreamError` (`stopReason: 'error'`). */
  partial(_why?: string): AssistantMessage {
    return this.message('error');
  }

  private noteStop(reason: string): void {
    this.rawStopReason = reason;
    this.stopReason = mapAnthropicStopReason(reason);
  }

  /** Blocks `message_start` already carries: each one started, filled and stopped at once. */
  private startContent(content: readonly unknown[]): ModelEvent[] {
    const events = content.flatMap((block, i) => this.blocks.whole(this.blockBase + i, block as StartBlock));
    this.blockBase += content.length;
    return events;
  }

  private message(stopReason: FinishReason): AssistantMessage {
    const message: AssistantMessage = {
      role: 'assistant',
      content: blocksToContent(this.blocks.states),
      stopReason,
      usage: mapAnthropicUsage(sumCounts(this.banked, this.tokens)),
      provider: 'anthropic',
      model: this.model,
      timestamp: this.timestamp,
    };
    if (this.responseId) message.responseId = this.responseId;
    if (Object.keys(this.metadata).length > 0) message.providerMetadata = { ...this.metadata };
    return message;
  }
}

function sumCounts(a: AnthropicTokenCounts, b: AnthropicTokenCounts): AnthropicTokenCounts {
  const sum: AnthropicTokenCounts = {
    input: a.input + b.input,
    cacheRead: a.cacheRead + b.cacheRead,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    output: a.output + b.output,
  };
  if (a.reasoning !== undefined || b.reasoning !== undefined)
    sum.reasoning = (a.reasoning ?? 0) + (b.reasoning ?? 0);
  return sum;
}
