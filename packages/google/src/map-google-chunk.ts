import type {
  FunctionCall,
  GenerateContentResponse,
  GroundingMetadata,
  Part,
  UrlContextMetadata,
} from '@google/genai';
import type {
  AssistantMessage,
  AssistantPart,
  FinishReason,
  ModelEvent,
  ToolCallPart,
  Usage,
} from '@rxagent/core';
import { MessageBuilder, type ChunkMapper } from '@rxagent/core/provider';
import {
  contentPart,
  groundingCitations,
  groundingPart,
  signaturePart,
  urlContextPart,
} from './google-server-parts.js';
import { mapGoogleFinishReason } from './map-google-finish-reason.js';
import { mapGoogleUsage } from './map-google-usage.js';
import { StreamedFunctionArgs, type PartialArg } from './streamed-function-args.js';

interface OpenCall {
  index: number;
  id: string;
  name: string;
  geminiId?: string;
  args: StreamedFunctionArgs;
}

/**
 * Gemini stream chunks (`GenerateContentResponse`, candidate 0) → `ModelEvent`s. Consecutive
 * text parts make one text part and consecutive thought parts one thinking part (with its
 * `thoughtSignature`); a signature on any other part becomes a `thought_signature` provider
 * part next to it, so it goes back verbatim. Function calls arrive whole (`args`) or streamed
 * (`willContinue` with `partialArgs`, ended by an empty `functionCall` — or by whatever comes
 * next, or the end of the stream, when that terminal chunk is missing); each is a tool call with
 * Gemini's `id` kept as `itemId` (the call's `id` is Gemini's, else one made from the response
 * id). Code execution parts and anything newer are provider parts, images image parts. At the
 * end: Google Search grounding and URL context as provider parts, grounding as citations on the
 * answer, usage (the last reported), then `finish`. The terminal signal is a `finishReason` or
 * a blocked prompt (`promptFeedback.blockReason`, `content-filter`).
 *
 * @example
 * const mapper = new GoogleChunkMapper('gemini-2.5-flash', scheduler.now());
 * for await (const chunk of stream) events.push(...mapper.map(chunk));
 * if (mapper.terminated) events.push(...mapper.flush());
 */
export class GoogleChunkMapper implements ChunkMapper<GenerateContentResponse> {
  /** Read to the end: the last chunks may still carry usage. */
  readonly done = false;
  private readonly builder: MessageBuilder;
  private nextIndex = 0;
  private current: { kind: 'text' | 'thinking'; index: number } | undefined;
  private openCall: OpenCall | undefined;
  private clientCalls = 0;
  private finishReason: string | undefined;
  private blockReason: string | undefined;
  private usage: Usage | undefined;
  private model: string | undefined;
  private responseId: string | undefined;
  private grounding: GroundingMetadata | undefined;
  private urlContext: UrlContextMetadata | undefined;
  private readonly metadata: Record<string, unknown> = {};

  /**
   * @param textTools Free-form tools (string parameters), declared as `{ input }` functions:
   *   their calls' arguments are unwrapped back to the string.
   */
  constructor(
    modelId: string,
    timestamp: number,
    private readonly textTools: ReadonlySet<string> = new Set(),
  ) {
    this.builder = new MessageBuilder('google', modelId, timestamp);
  }

  get terminated(): boolean {
    return this.finishReason !== undefined || this.blockReason !== undefined;
  }

  map(chunk: GenerateContentResponse): ModelEvent[] {
    this.responseId ??= chunk.responseId || undefined;
    this.model ??= chunk.modelVersion || undefined;
    if (chunk.usageMetadata) this.usage = mapGoogleUsage(chunk.usageMetadata);
    const blocked = chunk.promptFeedback?.blockReason;
    if (blocked) {
      this.blockReason = blocked;
      this.metadata.promptFeedback = chunk.promptFeedback;
    }
    const candidate = chunk.candidates?.find((c) => (c.index ?? 0) === 0);
    if (!candidate) return [];
    const events = (candidate.content?.parts ?? []).flatMap((part) => this.part(part));
    if (candidate.groundingMetadata) this.grounding = candidate.groundingMetadata;
    if (candidate.urlContextMetadata) this.urlContext = candidate.urlContextMetadata;
    if (candidate.safetyRatings) this.metadata.safetyRatings = candidate.safetyRatings;
    if (candidate.finishMessage) this.metadata.finishMessage = candidate.finishMessage;
    if (candidate.finishReason) this.finishReason = candidate.finishReason;
    return events;
  }

  flush(): ModelEvent[] {
    const events = this.closeCall();
    if (this.grounding) {
      const answer = this.lastText();
      if (answer) {
        const citations = groundingCitations(this.grounding, answer.part.text);
        if (citations.length > 0) events.push(this.set(answer.index, { ...answer.part, citations }));
      }
      events.push(this.set(this.nextIndex++, groundingPart(this.grounding)));
    }
    if (this.urlContext) events.push(this.set(this.nextIndex++, urlContextPart(this.urlContext)));
    if (this.usage) events.push(this.emit({ type: 'usage', usage: this.usage }));
    const mapped: FinishReason = this.blockReason
      ? 'content-filter'
      : mapGoogleFinishReason(this.finishReason);
    const reason = mapped === 'stop' && this.clientCalls > 0 ? 'tool-calls' : mapped;
    const message: AssistantMessage = { ...this.builder.message, stopReason: reason };
    if (this.model) message.model = this.model;
    if (this.responseId) message.responseId = this.responseId;
    if (Object.keys(this.metadata).length > 0) message.providerMetadata = { ...this.metadata };
    events.push({ type: 'finish', reason, message });
    return events;
  }

  partial(why: string): AssistantMessage {
    return { ...this.builder.message, stopReason: 'error', errorMessage: why };
  }

  private part(part: Part): ModelEvent[] {
    if (part.functionCall) return this.functionCall(part.functionCall, part.thoughtSignature);
    // Whatever follows a streamed call ends it, even without its terminal chunk.
    const events = this.closeCall();
    const signature = part.thoughtSignature;
    if (part.thought && typeof part.text === 'string') {
      if (part.text || signature) {
        const index = this.block('thinking');
        events.push(
          this.emit({ type: 'thinking-delta', index, text: part.text, ...(signature && { signature }) }),
        );
      }
      return events;
    }
    if (typeof part.text === 'string') {
      if (part.text)
        events.push(this.emit({ type: 'text-delta', index: this.block('text'), text: part.text }));
      if (signature) events.push(this.standalone(signaturePart(signature)));
      return events;
    }
    if (signature) events.push(this.standalone(signaturePart(signature)));
    if (part.inlineData?.data && part.inlineData.mimeType?.startsWith('image/')) {
      events.push(
        this.standalone({ type: 'image', data: part.inlineData.data, mimeType: part.inlineData.mimeType }),
      );
    } else {
      events.push(this.standalone(contentPart(part)));
    }
    return events;
  }

  private functionCall(call: FunctionCall, signature: string | undefined): ModelEvent[] {
    const piece = call as FunctionCall & { partialArgs?: PartialArg[]; willContinue?: boolean };
    if (!call.name) {
      // A streamed call's arguments, an empty keep-going chunk, or its terminal chunk.
      if (!this.openCall) return [];
      if (piece.partialArgs) this.openCall.args.add(piece.partialArgs);
      return piece.willContinue === true ? [] : this.closeCall();
    }
    const events = this.closeCall();
    if (signature) events.push(this.standalone(signaturePart(signature)));
    const index = this.nextIndex++;
    this.current = undefined;
    this.clientCalls++;
    const open: OpenCall = {
      index,
      id: call.id || `${this.responseId ?? 'call'}_${index}`,
      name: call.name,
      ...(call.id && { geminiId: call.id }),
      args: new StreamedFunctionArgs(),
    };
    Object.assign(open.args.value, call.args ?? {});
    if (piece.partialArgs) open.args.add(piece.partialArgs);
    events.push(this.emit({ type: 'toolcall-start', index, id: open.id, name: open.name }));
    this.openCall = open;
    return piece.willContinue === true ? events : [...events, ...this.closeCall()];
  }

  /** Ends the call in progress: its arguments as one delta, then the call. */
  private closeCall(): ModelEvent[] {
    const open = this.openCall;
    if (!open) return [];
    this.openCall = undefined;
    const argsText = JSON.stringify(open.args.value);
    const input = (open.args.value as { input?: unknown }).input;
    const call: ToolCallPart = {
      type: 'tool-call',
      id: open.id,
      name: open.name,
      args: this.textTools.has(open.name) ? (typeof input === 'string' ? input : '') : open.args.value,
      ...(open.geminiId && { itemId: open.geminiId }),
    };
    return [
      this.emit({ type: 'toolcall-delta', index: open.index, argsText }),
      this.emit({ type: 'toolcall-end', index: open.index, call }),
    ];
  }

  /** The index of the text or thinking part that a part of `kind` continues (or starts). */
  private block(kind: 'text' | 'thinking'): number {
    if (this.current?.kind !== kind) this.current = { kind, index: this.nextIndex++ };
    return this.current.index;
  }

  /** A whole part of its own at the next index; text after it starts a new part. */
  private standalone(part: AssistantPart): ModelEvent {
    this.current = undefined;
    return this.set(this.nextIndex++, part);
  }

  private set(index: number, part: AssistantPart): ModelEvent {
    return this.emit({ type: 'part', index, part });
  }

  private lastText(): { index: number; part: Extract<AssistantPart, { type: 'text' }> } | undefined {
    const content = this.builder.message.content;
    for (let position = content.length - 1; position >= 0; position--) {
      const part = content[position];
      // Every index handed out is emitted at once, in order, so a position is its index.
      if (part?.type === 'text' && part.text) return { index: position, part };
    }
    return undefined;
  }

  private emit(event: ModelEvent): ModelEvent {
    this.builder.apply(event);
    return event;
  }
}
