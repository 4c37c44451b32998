import type { AgentEvent } from '../../events/agent-event.js';
import type { MessageDelta } from '../../events/message-delta.js';
import type { StepResult } from '../../events/step-result.js';
import type { AgentMessage, AssistantMessage, AssistantPart } from '../../messages/types.js';
import { WireFormatError, WireSequenceError } from '../wire-errors.js';
import { withContent } from '../../messages/with-content.js';
import { applyDelta, defaultPosition, type GrowCounter } from './partial-fold.js';
import { isMessageRef, isPartRef, KNOWN_EVENT_TYPES } from './wire-event.js';

type Json = Record<string, unknown>;

const DELTA_KINDS = new Set(['text', 'thinking', 'toolcall', 'part']);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fail(what: string): never {
  throw new WireFormatError(
    `Not an rxagent wire event: ${what}. Read streams written by toSSEStream / encodeEvents.`,
  );
}

/**
 * The reading half of the wire codec, for one stream: turns `WireEvent`s back into the run's
 * events, in process form — a `message-update` with the partial message rebuilt from the
 * deltas (so the state fold, `withState`, sees what it sees in the server's process), every
 * reference resolved to the message the stream carried before. It checks the sequence: an
 * event numbered at or before the last one is a duplicate and dropped (`undefined`), a gap is
 * a `WireSequenceError`; bad data is a `WireFormatError`; an event of a type this version does
 * not know (a newer writer) is skipped (`undefined`, counted in `skipped`).
 *
 * @example
 * const decoder = createWireDecoder();
 * for (const line of lines) {
 *   const event = decoder.decode(JSON.parse(line));
 *   if (event) state = reduceAgentState(state, event);
 * }
 */
export class WireDecoder {
  private last: number | undefined;
  private readonly partials = new Map<string, AssistantMessage>();
  private readonly counters = new Map<string, GrowCounter>();
  private readonly messages = new Map<number | string, AgentMessage>();
  /** Events skipped because their type is unknown to this version. */
  skipped = 0;

  /** The sequence number of the last event taken (undefined before the first). */
  get lastSeq(): number | undefined {
    return this.last;
  }

  /**
   * The event a wire event stands for; `undefined` for a duplicate or an unknown type.
   *
   * @param wire A parsed wire event (`JSON.parse` of a frame's data or a line).
   * @param ref What the writer called the messages it carries (default its `seq`).
   */
  decode(wire: unknown, ref?: number | string): AgentEvent | undefined {
    if (!isObject(wire)) fail(`${JSON.stringify(wire) ?? String(wire)} is not an object`);
    const seq = wire.seq;
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) {
      fail(`the event has no sequence number ("seq": ${JSON.stringify(seq) ?? 'missing'})`);
    }
    if (this.last !== undefined) {
      if (seq <= this.last) return undefined;
      if (seq !== this.last + 1) throw new WireSequenceError(this.last, seq);
    }
    this.last = seq;
    if (typeof wire.type !== 'string') fail(`event ${seq} has no "type"`);
    if (!KNOWN_EVENT_TYPES.has(wire.type)) {
      this.skipped++;
      return undefined;
    }
    return this.event(wire, '', ref ?? seq);
  }

  private event(wire: Json, key: string, ref: number | string): AgentEvent {
    const { seq: _seq, ...rest } = wire;
    const event = rest as unknown as AgentEvent & Json;
    switch (event.type) {
      case 'message-update':
        return this.update(wire, key);
      case 'message-start': {
        const message = this.message(wire.message);
        if (message.role === 'assistant') this.partials.delete(key);
        this.messages.set(ref, message);
        return { type: 'message-start', message };
      }
      case 'message-end': {
        const message = this.messageEnd(wire.message, key);
        this.partials.delete(key);
        this.messages.set(ref, message);
        return { type: 'message-end', message };
      }
      case 'turn-end':
        return { type: 'turn-end', step: this.step(wire.step) };
      case 'agent-end':
        if (!Array.isArray(wire.messages)) fail('agent-end without "messages"');
        return { ...event, messages: wire.messages.map((m) => this.message(m)) };
      case 'retry':
        this.partials.delete(key);
        return event;
      case 'agent-start':
        if (key === '') this.partials.clear();
        else this.partials.delete(key);
        return event;
      case 'subrun': {
        const path = wire.path;
        const inner = wire.event;
        if (!Array.isArray(path) || !isObject(inner) || typeof inner.type !== 'string') {
          fail('a subrun event without "path" and "event"');
        }
        const last = path[path.length - 1] as { runId?: unknown } | undefined;
        const runId = typeof last?.runId === 'string' ? last.runId : '?';
        const innerEvent = this.event(inner, `sub:${runId}`, ref);
        return { ...event, event: innerEvent };
      }
      default:
        return event;
    }
  }

  private update(wire: Json, key: string): AgentEvent {
    const delta = wire.delta as MessageDelta;
    if (
      !isObject(delta) ||
      !DELTA_KINDS.has(delta.kind) ||
      typeof delta.text !== 'string' ||
      !Number.isInteger(delta.index)
    ) {
      fail(`a message-update with a bad delta ${JSON.stringify(wire.delta)}`);
    }
    if (wire.message !== undefined) {
      const message = this.message(wire.message);
      if (message.role !== 'assistant') fail('a message-update whose message is not an assistant message');
      this.partials.set(key, message);
      return { type: 'message-update', message, delta };
    }
    let prev = this.partials.get(key);
    if (wire.base !== undefined) {
      const base = this.message(wire.base);
      if (base.role !== 'assistant') fail('a message-update whose base is not an assistant message');
      prev = base;
    }
    if (!prev) fail('a message-update delta for a message whose start this reader did not receive');
    const content = prev.content.slice();
    const at = wire.at ?? defaultPosition(prev.content, delta.kind);
    if (!Number.isInteger(at) || (at as number) < 0 || (at as number) > content.length) {
      fail(`a message-update at position ${JSON.stringify(at)} of a message of ${content.length} part(s)`);
    }
    let counter = this.counters.get(key);
    if (!counter) this.counters.set(key, (counter = { sinceFlatten: 0 }));
    if (delta.kind === 'part' && !isObject(delta.part)) fail('a part delta without its part');
    content[at as number] = applyDelta(content[at as number], delta, counter);
    if (wire.parts !== undefined) {
      if (!isObject(wire.parts)) fail('a message-update whose "parts" is not an object');
      for (const [i, part] of Object.entries(wire.parts)) {
        const n = Number(i);
        if (!Number.isInteger(n) || n < 0 || n > content.length || !isObject(part)) {
          fail(`a message-update setting part ${i} of a message of ${content.length} part(s)`);
        }
        content[n] = part as unknown as AssistantPart;
      }
    }
    const usage = (wire.usage as AssistantMessage['usage'] | undefined) ?? prev.usage;
    const message = withContent(prev, content, usage);
    this.partials.set(key, message);
    return { type: 'message-update', message, delta };
  }

  private messageEnd(value: unknown, key: string): AgentMessage {
    if (isMessageRef(value)) return this.message(value);
    if (!isObject(value) || typeof value.role !== 'string') fail('a message-end without a message');
    if (value.role !== 'assistant' || !Array.isArray(value.content) || !value.content.includes(null)) {
      return value as unknown as AgentMessage;
    }
    const partial = this.partials.get(key);
    if (!partial) fail('a message-end that refers to a streamed message this reader did not receive');
    const content = value.content.map((part: unknown, i: number) => {
      if (part !== null) return part;
      const streamed = partial.content[i];
      if (!streamed)
        fail(`a message-end that refers to part ${i} of a streamed message of ${partial.content.length}`);
      return streamed;
    });
    return { ...value, content } as unknown as AgentMessage;
  }

  private message(value: unknown): AgentMessage {
    if (isMessageRef(value)) {
      const known = this.messages.get(value.$m);
      if (!known)
        fail(`a reference to message ${JSON.stringify(value.$m)}, which this reader did not receive`);
      return known;
    }
    if (!isObject(value) || typeof value.role !== 'string') fail(`${JSON.stringify(value)} is not a message`);
    return value as unknown as AgentMessage;
  }

  private step(value: unknown): StepResult {
    if (!isObject(value)) fail('a turn-end without its step');
    const message = this.message(value.message) as AssistantMessage;
    const parts = Array.isArray(message.content) ? message.content : [];
    const calls = Array.isArray(value.toolCalls) ? value.toolCalls : [];
    const results = Array.isArray(value.toolResults) ? value.toolResults : [];
    return {
      ...(value as unknown as StepResult),
      message,
      toolCalls: calls.map((call: unknown) => {
        if (!isPartRef(call)) return call;
        const part = parts[call.$p];
        if (!part) fail(`a turn-end that refers to part ${call.$p} of a message of ${parts.length}`);
        return part;
      }) as StepResult['toolCalls'],
      toolResults: results.map((m: unknown) => this.message(m)) as StepResult['toolResults'],
    };
  }
}

/**
 * A new `WireDecoder`: one per stream read (it keeps the partial messages and the messages
 * received, across reconnects of that stream).
 *
 * @example
 * const decoder = createWireDecoder();
 * const event = decoder.decode({ seq: 1, type: 'turn-start', step: 1 }); // { type: 'turn-start', step: 1 }
 */
export function createWireDecoder(): WireDecoder {
  return new WireDecoder();
}
