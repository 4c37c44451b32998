import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { AssistantMessage, FinishReason, ModelEvent } from '@rxagent/core';
import { blocksToContent, finishToolBlock, type ContentBlockState } from './anthropic-content-blocks.js';
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
 * Block `index` becomes the event `index`; `message_stop` yields `usage` then `finish` with
 * the complete message. Unknown events, unknown blocks and `ping` are ignored; an `error`
 * event throws the matching typed provider error.
 *
 * @example
 * const mapper = new AnthropicEventMapper('claude-sonnet-4-6', scheduler.now());
 * for await (const event of stream) for (const out of mapper.map(event)) subscriber.next(out);
 * if (!mapper.finished) subscriber.error(new PartialStreamError('cut', { partial: mapper.partial() }));
 */
export class AnthropicEventMapper {
  /** True once any event arrived. */
  received = false;
  /** True once `message_stop` arrived (and `finish` was emitted). */
  finished = false;
  private readonly blocks = new Map<number, ContentBlockState>();
  private responseId = '';
  private model: string;
  private stopReason: FinishReason | undefined;
  private tokens: AnthropicTokenCounts = { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 };

  /**
   * @param modelId The model asked for (until `message_start` names the one that answered).
   * @param timestamp The message's `timestamp`.
   * @param secrets Credentials to keep out of the error an `error` event becomes.
   */
  constructor(
    modelId: string,
    private readonly timestamp: number,
    private readonly secrets: readonly string[] = [],
  ) {
    this.model = modelId;
  }

  /** The events one stream event amounts to (often none). */
  map(event: AnthropicStreamEvent): ModelEvent[] {
    this.received = true;
    switch (event.type) {
      case 'message_start':
        this.responseId = event.message.id ?? '';
        if (event.message.model) this.model = event.message.model;
        updateTokenCounts(this.tokens, event.message.usage);
        return [];
      case 'content_block_start':
        return this.startBlock(event.index, event.content_block);
      case 'content_block_delta':
        return this.applyDelta(event.index, event.delta);
      case 'content_block_stop':
        return this.stopBlock(event.index);
      case 'message_delta':
        if (event.delta?.stop_reason) this.stopReason = mapAnthropicStopReason(event.delta.stop_reason);
        updateTokenCounts(this.tokens, event.usage);
        return [];
      case 'message_stop': {
        this.finished = true;
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
  partial(): AssistantMessage {
    return this.message('error');
  }

  private startBlock(
    index: number,
    block: Extract<RawMessageStreamEvent, { type: 'content_block_start' }>['content_block'],
  ): ModelEvent[] {
    switch (block.type) {
      case 'text':
        this.blocks.set(index, { kind: 'text', text: block.text ?? '' });
        return block.text ? [{ type: 'text-delta', index, text: block.text }] : [];
      case 'thinking':
        this.blocks.set(index, {
          kind: 'thinking',
          text: block.thinking ?? '',
          ...(block.signature ? { signature: block.signature } : {}),
        });
        return block.thinking ? [{ type: 'thinking-delta', index, text: block.thinking }] : [];
      case 'redacted_thinking':
        this.blocks.set(index, { kind: 'redacted', data: block.data ?? '' });
        // An empty delta gives the partial message its (opaque) thinking part at this index.
        return [{ type: 'thinking-delta', index, text: '' }];
      case 'tool_use': {
        const initial = isNonEmptyObject(block.input) ? JSON.stringify(block.input) : '';
        this.blocks.set(index, { kind: 'tool', id: block.id, name: block.name, input: '', initial });
        return [{ type: 'toolcall-start', index, id: block.id, name: block.name }];
      }
      default:
        // Server tools and their results run at Anthropic: nothing for the loop to do.
        this.blocks.set(index, { kind: 'ignored' });
        return [];
    }
  }

  private applyDelta(
    index: number,
    delta: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta'],
  ): ModelEvent[] {
    const block = this.blocks.get(index);
    if (delta.type === 'text_delta' && block?.kind === 'text' && delta.text) {
      block.text += delta.text;
      return [{ type: 'text-delta', index, text: delta.text }];
    }
    if (delta.type === 'thinking_delta' && block?.kind === 'thinking' && delta.thinking) {
      block.text += delta.thinking;
      return [{ type: 'thinking-delta', index, text: delta.thinking }];
    }
    if (delta.type === 'signature_delta' && block?.kind === 'thinking') {
      block.signature = delta.signature; // replaces: the signature is one opaque value
      return [{ type: 'thinking-delta', index, text: '', signature: delta.signature }];
    }
    if (delta.type === 'input_json_delta' && block?.kind === 'tool' && delta.partial_json) {
      block.input += delta.partial_json;
      return [{ type: 'toolcall-delta', index, argsText: delta.partial_json }];
    }
    return []; // citations, empty pieces, deltas of ignored blocks
  }

  private stopBlock(index: number): ModelEvent[] {
    const block = this.blocks.get(index);
    if (block?.kind !== 'tool' || block.call) return [];
    block.call = finishToolBlock(block);
    return [{ type: 'toolcall-end', index, call: block.call }];
  }

  private message(stopReason: FinishReason): AssistantMessage {
    const message: AssistantMessage = {
      role: 'assistant',
      content: blocksToContent(this.blocks),
      stopReason,
      usage: mapAnthropicUsage(this.tokens),
      provider: 'anthropic',
      model: this.model,
      timestamp: this.timestamp,
    };
    if (this.responseId) message.responseId = this.responseId;
    return message;
  }
}

function isNonEmptyObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
}
