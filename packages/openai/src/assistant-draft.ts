import { MessageBuilder, parseToolArguments } from '@rxagent/core/provider';
import type {
  AssistantMessage,
  AssistantPart,
  FinishReason,
  ModelEvent,
  ProviderPart,
  ToolCallPart,
  Usage,
} from '@rxagent/core';

interface DraftCall {
  index: number;
  id: string;
  name: string;
  argsText: string;
  ended: boolean;
  /** The provider ran it: a provider part now, no call for the client. */
  server?: boolean;
  /** A free-form (custom) tool's call: its arguments are the raw text, not JSON. */
  custom?: boolean;
}

/**
 * What the terminal signal of a stream says about the message.
 *
 * @example
 * const ending: DraftEnding = { reason: 'stop', model: 'gpt-4o-mini-2024-07-18', responseId: 'chatcmpl-1' };
 */
export interface DraftEnding {
  reason: FinishReason;
  usage?: Usage;
  model?: string;
  responseId?: string;
}

/**
 * The assistant message being streamed, shared by both chunk mappers. Parts are keyed by the
 * mapper's own names (a choice's text, a tool call's wire index, a Responses item id) and get
 * their content index in order of first appearance, so `index` in every event is the part's
 * position in the final message. Every event it returns is also folded into the message.
 *
 * @example
 * const draft = new AssistantDraft('gpt-4o-mini', Date.now());
 * draft.text('text', 'Hi'); // [{ type: 'text-delta', index: 0, text: 'Hi' }]
 * draft.finish({ reason: 'stop' }); // [{ type: 'finish', reason: 'stop', message }]
 */
export class AssistantDraft {
  private readonly builder: MessageBuilder;
  private readonly indices = new Map<string, number>();
  private readonly calls = new Map<string, DraftCall>();

  constructor(
    modelId: string,
    timestamp: number,
    private readonly textTools: ReadonlySet<string> = new Set(),
  ) {
    this.builder = new MessageBuilder('openai', modelId, timestamp);
  }

  /** True once any tool call the client must run started. */
  get hasToolCalls(): boolean {
    for (const call of this.calls.values()) if (!call.server) return true;
    return false;
  }

  /** Appends text to the text part `key`. */
  text(key: string, text: string): ModelEvent[] {
    if (!text) return [];
    return this.emit({ type: 'text-delta', index: this.indexOf(`text:${key}`), text });
  }

  /** The text of text part `key` so far (undefined when it has none). */
  textOf(key: string): string | undefined {
    const index = this.indices.get(`text:${key}`);
    if (index === undefined) return undefined;
    // Every index handed out was emitted at once, so it is also the part's position.
    const part = this.builder.message.content[index];
    return part?.type === 'text' ? part.text : undefined;
  }

  /** Appends reasoning text to the thinking part `key`. */
  thinking(key: string, text: string): ModelEvent[] {
    if (!text) return [];
    return this.emit({ type: 'thinking-delta', index: this.indexOf(`thinking:${key}`), text });
  }

  /** Starts tool call `key` (a repeated start only fills in a missing id or name). */
  startCall(key: string, id: string | undefined, name: string | undefined): ModelEvent[] {
    const known = this.calls.get(key);
    if (known) {
      if (!known.id && id) known.id = id;
      if (!known.name && name) known.name = name;
      return [];
    }
    const index = this.indexOf(`call:${key}`);
    const call: DraftCall = {
      index,
      id: id || `call_${index}`,
      name: name ?? '',
      argsText: '',
      ended: false,
    };
    this.calls.set(key, call);
    return this.emit({ type: 'toolcall-start', index, id: call.id, name: call.name });
  }

  /** Appends argument text to tool call `key` (started on the fly when the start was missed). */
  callDelta(key: string, argsText: string): ModelEvent[] {
    const events = this.calls.has(key) ? [] : this.startCall(key, undefined, undefined);
    const call = this.calls.get(key);
    if (!call || call.ended || !argsText) return events;
    call.argsText += argsText;
    return [...events, ...this.emit({ type: 'toolcall-delta', index: call.index, argsText })];
  }

  /** Replaces the arguments of tool call `key` with the complete text the server sent. */
  setCallArguments(key: string, argsText: string): void {
    const call = this.calls.get(key);
    if (call && !call.ended) call.argsText = argsText;
  }

  /** Marks tool call `key` as a custom tool's call: its text is the arguments, as they are. */
  markCustom(key: string): void {
    const call = this.calls.get(key);
    if (call) call.custom = true;
  }

  /** Ends tool call `key`: parses its arguments and emits `toolcall-end` (once). */
  endCall(key: string): ModelEvent[] {
    const call = this.calls.get(key);
    if (!call || call.ended) return [];
    call.ended = true;
    const part: ToolCallPart = call.custom
      ? {
          type: 'tool-call',
          id: call.id,
          name: call.name,
          args: call.argsText,
          providerKind: 'custom_tool_call',
        }
      : this.unwrapText(parseToolArguments(call.id, call.name, call.argsText));
    return this.emit({ type: 'toolcall-end', index: call.index, call: part });
  }

  /** A free-form tool's `{ input }` arguments back to its text. */
  private unwrapText(call: ToolCallPart): ToolCallPart {
    if (!this.textTools.has(call.name) || call.argsError !== undefined) return call;
    const input = (call.args as { input?: unknown } | null)?.input;
    return { ...call, args: typeof input === 'string' ? input : '' };
  }

  /**
   * Ends tool call `key` with a call the mapper built itself (a native call kind whose
   * arguments are not JSON text), starting it first when it was not streamed.
   */
  endCallWith(key: string, call: ToolCallPart): ModelEvent[] {
    const events = this.startCall(key, call.id, call.name);
    const draft = this.calls.get(key);
    if (!draft || draft.ended) return events;
    draft.ended = true;
    return [
      ...events,
      ...this.emit({ type: 'toolcall-end', index: draft.index, call: { ...call, id: draft.id } }),
    ];
  }

  /**
   * Call `key` ran at the provider: its part becomes `part` (the call item, sent back
   * verbatim) and it no longer counts as a call for the client, whether or not it streamed.
   */
  serverCall(key: string, part: ProviderPart): ModelEvent[] {
    const known = this.calls.get(key);
    const index = known?.index ?? this.indexOf(`call:${key}`);
    this.calls.set(key, {
      index,
      id: known?.id ?? '',
      name: known?.name ?? '',
      argsText: '',
      ended: true,
      server: true,
    });
    return this.emit({ type: 'part', index, part });
  }

  /** Sets the whole `kind` part `key` (completing a streamed one, or adding a new one). */
  setPart(kind: 'text' | 'thinking' | 'part', key: string, part: AssistantPart): ModelEvent[] {
    return this.emit({ type: 'part', index: this.indexOf(`${kind}:${key}`), part });
  }

  /** Ends every open tool call, then emits `usage` (when known) and the `finish` event. */
  finish(ending: DraftEnding): ModelEvent[] {
    const events = [...this.calls.keys()].flatMap((key) => this.endCall(key));
    if (ending.usage) events.push(...this.emit({ type: 'usage', usage: ending.usage }));
    const reason = ending.reason === 'stop' && this.hasToolCalls ? 'tool-calls' : ending.reason;
    const message: AssistantMessage = { ...this.builder.message, stopReason: reason };
    if (ending.model) message.model = ending.model;
    if (ending.responseId) message.responseId = ending.responseId;
    events.push({ type: 'finish', reason, message });
    return events;
  }

  /** The message as far as it arrived, for errors that carry the partial message. */
  partial(errorMessage: string): AssistantMessage {
    return { ...this.builder.message, stopReason: 'error', errorMessage };
  }

  private indexOf(key: string): number {
    let index = this.indices.get(key);
    if (index === undefined) {
      index = this.indices.size;
      this.indices.set(key, index);
    }
    return index;
  }

  private emit(event: ModelEvent): ModelEvent[] {
    this.builder.apply(event);
    return [event];
  }
}
