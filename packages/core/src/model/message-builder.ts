import { InvalidModelEventError } from '../errors/agent-errors.js';
import type { MessageDelta } from '../events/agent-event.js';
import { emptyUsage } from '../messages/usage.js';
import { withContent } from '../messages/with-content.js';
import type { AssistantMessage, AssistantPart, ThinkingPart, ToolCallPart } from '../messages/types.js';
import type { ModelEvent } from './model-event.js';

type Part = AssistantPart;

/**
 * Folds `ModelEvent`s into the partial assistant message, one immutable snapshot per delta
 * (only the changed part and the content array are new: O(parts), never O(transcript)).
 * Tolerant of models that skip `toolcall-start` or interleave indices.
 *
 * @example
 * const builder = new MessageBuilder('openai', 'gpt-4o-mini', now);
 * const delta = builder.apply({ type: 'text-delta', index: 0, text: 'Hi' });
 * builder.message; // { role: 'assistant', content: [{ type: 'text', text: 'Hi' }], … }
 */
export class MessageBuilder {
  message: AssistantMessage;
  // Where each streamed part sits in `content`, by index (made on first use).
  private positions?: Map<string, number>;
  private textPositions?: Map<number, number>;

  constructor(provider: string, model: string, timestamp: number) {
    this.message = {
      role: 'assistant',
      content: [],
      stopReason: 'stop',
      usage: emptyUsage(),
      provider,
      model,
      timestamp,
    };
  }

  /** Applies a delta event; returns the `MessageDelta` it amounts to (undefined for usage/finish). */
  apply(event: ModelEvent): MessageDelta | undefined {
    if (
      typeof event !== 'object' ||
      event === null ||
      typeof (event as { type?: unknown }).type !== 'string'
    ) {
      throw new InvalidModelEventError(
        `The model emitted something that is not a ModelEvent: ${JSON.stringify(event)}. Emit objects with a "type".`,
      );
    }
    switch (event.type) {
      case 'text-delta': {
        // The hot path (one per streamed token): no closure, no string key.
        const content = this.message.content.slice();
        const positions = (this.textPositions ??= new Map<number, number>());
        let position = positions.get(event.index);
        if (position === undefined) {
          position = content.length;
          positions.set(event.index, position);
        }
        content[position] = { type: 'text', text: this.grow(textOf(content[position]), event.text) };
        this.message = withContent(this.message, content, this.message.usage);
        return { kind: 'text', text: event.text, index: event.index };
      }
      case 'thinking-delta':
        this.update('thinking', event.index, (p) => {
          const part: ThinkingPart =
            p?.type === 'thinking'
              ? { ...p, text: this.grow(p.text, event.text) }
              : { type: 'thinking', text: this.grow('', event.text) };
          const signature = event.signature ?? (p?.type === 'thinking' ? p.signature : undefined);
          if (signature !== undefined) part.signature = signature;
          return part;
        });
        return { kind: 'thinking', text: event.text, index: event.index };
      case 'toolcall-start':
        this.update('call', event.index, () => ({
          type: 'tool-call',
          id: event.id,
          name: event.name,
          args: {},
          argsText: '',
        }));
        return { kind: 'toolcall', text: '', index: event.index };
      case 'toolcall-delta':
        this.update('call', event.index, (p) => {
          const call: ToolCallPart =
            p?.type === 'tool-call' ? p : { type: 'tool-call', id: '', name: '', args: {}, argsText: '' };
          return {
            type: 'tool-call',
            id: call.id,
            name: call.name,
            args: call.args,
            argsText: (call.argsText ?? '') + event.argsText,
          };
        });
        return { kind: 'toolcall', text: event.argsText, index: event.index };
      case 'toolcall-end': {
        const call = event.call as ToolCallPart | null | undefined;
        if (typeof call !== 'object' || call === null || typeof call.name !== 'string') {
          throw new InvalidModelEventError(
            `The model ended tool call ${event.index} without a call: ${JSON.stringify(call) ?? 'undefined'}.`,
          );
        }
        this.update('call', event.index, () => call);
        return undefined;
      }
      case 'part':
        this.setPart(event.index, event.part);
        return { kind: 'part', text: '', index: event.index, part: event.part };
      case 'usage':
        this.message = withContent(this.message, this.message.content, event.usage);
        return undefined;
      case 'finish':
      case 'rate-limit': // the provider's headers: not part of the message
        return undefined;
      default:
        return undefined;
    }
  }

  private sinceFlatten = 0;

  /**
   * `text + delta`. V8 builds a rope (one node per delta) that the GC has to walk and
   * promote, so the text is flattened now and then: after at least 512 deltas and once the
   * deltas since the last flatten are a sixteenth of the text, which keeps the copying O(n).
   */
  private grow(text: string, delta: string): string {
    const grown = text + delta;
    if (++this.sinceFlatten >= 512 && this.sinceFlatten * 16 >= grown.length) {
      this.sinceFlatten = 0;
      flatten(grown);
    }
    return grown;
  }

  /** Puts a whole part at `index`, where a streamed part of that index already sits if any. */
  private setPart(index: number, part: Part): void {
    if (typeof part !== 'object' || part === null || typeof (part as { type?: unknown }).type !== 'string') {
      throw new InvalidModelEventError(
        `The model set part ${index} to something that is not a part: ${JSON.stringify(part)}.`,
      );
    }
    const positions = (this.positions ??= new Map<string, number>());
    const position =
      this.textPositions?.get(index) ??
      positions.get(`thinking:${index}`) ??
      positions.get(`call:${index}`) ??
      positions.get(`part:${index}`);
    const content = this.message.content.slice();
    if (position === undefined) {
      positions.set(`part:${index}`, content.length);
      content.push(part);
    } else {
      content[position] = part;
    }
    this.message = withContent(this.message, content, this.message.usage);
  }

  private update(kind: 'thinking' | 'call', index: number, next: (prev: Part | undefined) => Part): void {
    const key = `${kind}:${index}`;
    const content = this.message.content.slice();
    const positions = (this.positions ??= new Map<string, number>());
    const position = positions.get(key);
    if (position === undefined) {
      positions.set(key, content.length);
      content.push(next(undefined));
    } else {
      content[position] = next(content[position]);
    }
    this.message = withContent(this.message, content, this.message.usage);
  }
}

/** Forces V8 to flatten a rope string in place (ToNumber reads it flat). */
function flatten(text: string): void {
  if (Number.isNaN(Number(text))) return;
}

function textOf(part: Part | undefined): string {
  return part && (part.type === 'text' || part.type === 'thinking') ? part.text : '';
}
