import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ModelEvent, ToolCallPart } from '@rxagent/core';
import { finishToolBlock, partOf, type ContentBlockState } from './anthropic-content-blocks.js';

/** A content block as `content_block_start` (or `message_start`) carries it. */
export type StartBlock = Extract<RawMessageStreamEvent, { type: 'content_block_start' }>['content_block'];

/** A `content_block_delta`'s delta. */
export type BlockDelta = Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta'];

/**
 * The content blocks of one streamed message and the events each of their changes amounts
 * to. A block gets its position in the finished message (the event `index`) when it first
 * shows; blocks that never show (empty text) take none. Server tools' blocks and their
 * results are kept whole and become provider parts when they stop; a text block with
 * citations is completed with them when it stops; free-form tools' `{ input }` arguments are
 * unwrapped back to their text.
 *
 * @example
 * const blocks = new AnthropicBlocks(new Set());
 * blocks.start(0, { type: 'text', text: '', citations: null }); // []
 * blocks.delta(0, { type: 'text_delta', text: 'Hi' }); // [{ type: 'text-delta', index: 0, text: 'Hi' }]
 */
export class AnthropicBlocks {
  readonly states = new Map<number, ContentBlockState>();
  private nextPosition = 0;

  constructor(private readonly textTools: ReadonlySet<string>) {}

  /** One past the highest block index seen (where a continued turn's blocks start). */
  get end(): number {
    return Math.max(0, ...[...this.states.keys()].map((k) => k + 1));
  }

  /** `content_block_start`. */
  start(index: number, block: StartBlock): ModelEvent[] {
    switch (block.type) {
      case 'text': {
        const state: ContentBlockState = { kind: 'text', text: block.text ?? '' };
        this.states.set(index, state);
        return block.text ? [{ type: 'text-delta', index: this.place(state), text: block.text }] : [];
      }
      case 'thinking': {
        const signature = block.signature ? { signature: block.signature } : {};
        const state: ContentBlockState = { kind: 'thinking', text: block.thinking ?? '', ...signature };
        this.states.set(index, state);
        return block.thinking || block.signature
          ? [{ type: 'thinking-delta', index: this.place(state), text: block.thinking ?? '', ...signature }]
          : [];
      }
      case 'redacted_thinking': {
        const state: ContentBlockState = { kind: 'redacted', data: block.data ?? '' };
        this.states.set(index, state);
        return [{ type: 'part', index: this.place(state), part: partOf(state) }];
      }
      case 'tool_use': {
        const initial = isNonEmptyObject(block.input) ? JSON.stringify(block.input) : '';
        const state: ContentBlockState = { kind: 'tool', id: block.id, name: block.name, input: '', initial };
        this.states.set(index, state);
        return [{ type: 'toolcall-start', index: this.place(state), id: block.id, name: block.name }];
      }
      default: {
        // Server tools and their results ran at Anthropic; the next request needs them back.
        const raw = block as unknown as Record<string, unknown>;
        const input = isNonEmptyObject(raw.input) ? JSON.stringify(raw.input) : '';
        this.states.set(index, { kind: 'server', block: raw, input });
        return [];
      }
    }
  }

  /** A block `message_start` already carries (programmatic tool calling): started, filled, stopped. */
  whole(index: number, block: StartBlock): ModelEvent[] {
    const events = this.start(index, block);
    const state = this.states.get(index);
    if (state?.kind === 'text' && block.type === 'text' && Array.isArray(block.citations)) {
      state.citations = [...block.citations];
    }
    return [...events, ...this.stop(index)];
  }

  /** `content_block_delta`. Empty pieces and deltas newer than this adapter give nothing. */
  delta(index: number, delta: BlockDelta): ModelEvent[] {
    const block = this.states.get(index);
    if (delta.type === 'text_delta' && block?.kind === 'text' && delta.text) {
      block.text += delta.text;
      return [{ type: 'text-delta', index: this.place(block), text: delta.text }];
    }
    if (delta.type === 'thinking_delta' && block?.kind === 'thinking' && delta.thinking) {
      block.text += delta.thinking;
      return [{ type: 'thinking-delta', index: this.place(block), text: delta.thinking }];
    }
    if (delta.type === 'signature_delta' && block?.kind === 'thinking') {
      block.signature = delta.signature; // replaces: the signature is one opaque value
      return [{ type: 'thinking-delta', index: this.place(block), text: '', signature: delta.signature }];
    }
    if (delta.type === 'input_json_delta' && block?.kind === 'tool' && delta.partial_json) {
      block.input += delta.partial_json;
      return [{ type: 'toolcall-delta', index: this.place(block), argsText: delta.partial_json }];
    }
    if (delta.type === 'input_json_delta' && block?.kind === 'server' && delta.partial_json) {
      block.input += delta.partial_json;
      return [];
    }
    if (delta.type === 'citations_delta' && block?.kind === 'text') {
      (block.citations ??= []).push(delta.citation);
    }
    return [];
  }

  /** `content_block_stop`: a tool call ends, a server block or a cited text becomes whole. */
  stop(index: number): ModelEvent[] {
    const block = this.states.get(index);
    if (block?.kind === 'tool' && !block.call) {
      block.call = this.unwrapText(finishToolBlock(block));
      return [{ type: 'toolcall-end', index: this.place(block), call: block.call }];
    }
    if (block?.kind === 'server') return [{ type: 'part', index: this.place(block), part: partOf(block) }];
    if (block?.kind === 'text' && block.citations?.length && block.text) {
      return [{ type: 'part', index: this.place(block), part: partOf(block) }];
    }
    return [];
  }

  /** The part's position in the finished message, given on the block's first event. */
  private place(block: ContentBlockState): number {
    return (block.position ??= this.nextPosition++);
  }

  private unwrapText(call: ToolCallPart): ToolCallPart {
    if (!this.textTools.has(call.name) || call.argsError !== undefined) return call;
    const input = (call.args as { input?: unknown }).input;
    return { ...call, args: typeof input === 'string' ? input : '' };
  }
}

function isNonEmptyObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
}
