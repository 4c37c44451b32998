import type { AgentEvent, MessageUpdateEvent } from '../../events/agent-event.js';
import type { StepResult } from '../../events/step-result.js';
import type { AgentMessage, AssistantMessage, AssistantPart } from '../../messages/types.js';
import {
  applyDelta,
  defaultPosition,
  jsonEqual,
  sameHeader,
  samePart,
  type GrowCounter,
} from './partial-fold.js';
import type { MessageRef, PartRef, WireEvent } from './wire-event.js';

/** The encoder only predicts what a reader folds: it never keeps the text it builds. */
const NO_FLATTEN: GrowCounter = { sinceFlatten: Number.NEGATIVE_INFINITY };

type Body = Record<string, unknown> & { type: string };

const asBody = (event: AgentEvent): Body => event as unknown as Body;

/**
 * The writing half of the wire codec, for one stream: turns a run's events, in order, into
 * `WireEvent`s (see there) that carry what the reader does not have yet — a `message-update`
 * its delta, a message already sent a reference — numbered by `seq`. One encoder per stream,
 * fed every event of it from the first one it sends: it remembers what this stream's reader
 * has. A reader that joins mid-run gets a new encoder, whose first `message-update` of each
 * message carries the partial message whole.
 *
 * Streamed text is trusted to be appended (as `MessageBuilder`, the core's model call, does):
 * a delta is checked against the length of the part, not its characters, so each costs
 * O(delta). Anything else that changed (a tool call's id and name, a signature, a part set
 * whole, the usage) is sent beside the delta.
 *
 * @example
 * const encoder = createWireEncoder();
 * run$.subscribe((event) => socket.send(JSON.stringify(encoder.encode(event))));
 */
export class WireEncoder {
  private seq = 0;
  /** The partial message each stream's reader has (key: '' for the run, a sub-run's id). */
  private readonly partials = new Map<string, AssistantMessage>();
  /** Each stream's assistant message as it started, sent with its first delta (`base`). */
  private readonly starts = new Map<string, AssistantMessage>();
  /** Messages this reader received, by the ref id of the event that carried them. */
  private readonly refs = new WeakMap<object, number | string>();

  /**
   * The wire form of the stream's next event.
   *
   * @param event The event (in process: `message-update` with its partial message).
   * @param seq Its sequence number (default: one more than the last).
   * @param ref What the reader will call the messages it carries (default `seq`; a durable
   * log passes the row's key, which is the same in every execution of the run).
   */
  encode(event: AgentEvent, seq?: number, ref?: number | string): WireEvent {
    this.seq = seq ?? this.seq + 1;
    const body = this.body(event, '', ref ?? this.seq);
    if (body.type === 'message-update' && !('message' in body) && !('parts' in body) && !('base' in body)) {
      // The hot path: written out, so a delta's wire event is one small object.
      const wire: WireEvent = { seq: this.seq, type: 'message-update', delta: body.delta };
      if (body.at !== undefined) wire.at = body.at;
      if (body.usage !== undefined) wire.usage = body.usage;
      return wire;
    }
    return { seq: this.seq, ...body };
  }

  private body(event: AgentEvent, key: string, ref: number | string): Body {
    switch (event.type) {
      case 'message-update':
        return this.update(event, key);
      case 'message-start': {
        if (event.message.role === 'assistant') {
          this.partials.delete(key);
          this.starts.set(key, event.message);
        }
        const message = this.messageOrRef(event.message);
        this.remember(event.message, ref);
        return message === event.message ? asBody(event) : { type: event.type, message };
      }
      case 'message-end':
        return this.messageEnd(event.message, key, ref);
      case 'turn-end':
        return { type: 'turn-end', step: this.step(event.step) };
      case 'agent-end':
        return { ...event, messages: event.messages.map((m) => this.messageOrRef(m)) };
      case 'retry':
        this.forget(key);
        return asBody(event);
      case 'agent-start':
        if (key === '') {
          this.partials.clear();
          this.starts.clear();
        } else this.forget(key);
        return asBody(event);
      case 'subrun': {
        const inner = event.path[event.path.length - 1]?.runId ?? '?';
        return { ...event, event: this.body(event.event, `sub:${inner}`, ref) };
      }
      default:
        return asBody(event);
    }
  }

  private forget(key: string): void {
    this.partials.delete(key);
    this.starts.delete(key);
  }

  /**
   * A delta against what the reader has. The first delta of a message is sent against the
   * message as it started, which it carries (`base`): a reader needs no earlier event to fold it
   * (a durable log may hold another execution's start). Without that (this encoder joined the
   * stream mid-message) it carries the partial message whole (`message`).
   */
  private update(event: MessageUpdateEvent, key: string): Body {
    const actual = event.message;
    let prev = this.partials.get(key);
    const base = prev ? undefined : this.starts.get(key);
    prev ??= base;
    this.partials.set(key, actual);
    this.starts.delete(key);
    const full: Body = { type: 'message-update', delta: event.delta, message: actual };
    if (!prev || !sameHeader(prev, actual)) return full;
    const before = prev.content;
    const content = actual.content;
    if (content.length < before.length) return full;
    const d = defaultPosition(before, event.delta.kind);
    // The parts that changed (by reference: the builder makes a new object for each one it changes).
    let p = -1;
    let others: number[] | undefined;
    for (let i = 0; i < content.length; i++) {
      if (before[i] === content[i]) continue;
      if (p < 0) p = i;
      else (others ??= []).push(i);
    }
    if (p < 0) p = d;
    else if (p !== d && others?.includes(d)) {
      others = [...others.filter((i) => i !== d), p];
      p = d;
    }
    if (p > before.length || (p < before.length ? before.length : p + 1) !== content.length) return full;
    const wire: Body = { type: 'message-update', delta: event.delta };
    if (base) wire.base = base;
    if (p !== d) wire.at = p;
    let parts: Record<number, AssistantPart> | undefined;
    if (!samePart(applyDelta(before[p], event.delta, NO_FLATTEN), content[p])) {
      (parts ??= {})[p] = content[p] as AssistantPart;
    }
    if (others) for (const i of others) (parts ??= {})[i] = content[i] as AssistantPart;
    if (parts) wire.parts = parts;
    if (actual.usage !== prev.usage) wire.usage = actual.usage;
    return wire;
  }

  private messageEnd(message: AgentMessage, key: string, ref: number | string): Body {
    const known = this.refs.get(message);
    const partial = message.role === 'assistant' ? this.partials.get(key) : undefined;
    this.forget(key);
    this.remember(message, ref);
    if (known !== undefined) return { type: 'message-end', message: { $m: known } satisfies MessageRef };
    if (!partial || message.role !== 'assistant') return { type: 'message-end', message };
    // The parts the reader already has from the stream are `null`.
    const content = message.content.map((part, i) => (jsonEqual(part, partial.content[i]) ? null : part));
    return { type: 'message-end', message: { ...message, content } };
  }

  private step(step: StepResult): StepResult {
    const message = step.message;
    const toolCalls = step.toolCalls.map((call) => {
      const k = message.content.indexOf(call);
      return k >= 0 ? ({ $p: k } satisfies PartRef) : call;
    });
    return {
      ...step,
      message: this.messageOrRef(message) as AssistantMessage,
      toolCalls: toolCalls as StepResult['toolCalls'],
      toolResults: step.toolResults.map((m) => this.messageOrRef(m)) as StepResult['toolResults'],
    };
  }

  private messageOrRef(message: AgentMessage): AgentMessage | MessageRef {
    const known = this.refs.get(message);
    return known === undefined ? message : { $m: known };
  }

  private remember(message: AgentMessage, ref: number | string): void {
    if (typeof message === 'object' && message !== null && !this.refs.has(message))
      this.refs.set(message, ref);
  }
}

/**
 * A new `WireEncoder`: one per stream (an SSE connection, a `--json` output, an execution's log).
 *
 * @example
 * const encoder = createWireEncoder();
 * const line = JSON.stringify(encoder.encode({ type: 'turn-start', step: 1 })); // {"seq":1,"type":"turn-start","step":1}
 */
export function createWireEncoder(): WireEncoder {
  return new WireEncoder();
}
