import {
  emptyUsage,
  type AssistantMessage,
  type FinishReason,
  type ModelEvent,
  type TextPart,
  type ThinkingPart,
  type ToolCallPart,
  type Usage,
} from '@rxagent/core';

/**
 * One scripted model call: the events it emits, then (optionally) an error instead of the end.
 *
 * @example
 * const turn: ScriptedTurn = { events: [textDelta('Hel')], error: new NetworkError('socket hang up') };
 */
export interface ScriptedTurn {
  events: ModelEvent[];
  /** Emitted after `events` instead of completing (e.g. a `RateLimitError`). */
  error?: unknown;
}

/**
 * Defaults of the messages the builders make.
 *
 * @example
 * textTurn('Hi', { usage: { inputTokens: 12, outputTokens: 3 }, provider: 'openai', model: 'gpt-4o-mini' });
 */
export interface BuilderOptions {
  usage?: Partial<Usage>;
  provider?: string;
  model?: string;
}

/**
 * A usage record from partial counts (`totalTokens` computed when left out).
 *
 * @example
 * usage({ inputTokens: 10, outputTokens: 5 }); // totalTokens: 15
 */
export function usage(partial: Partial<Usage> = {}): Usage {
  const u = { ...emptyUsage(), ...partial };
  if (partial.totalTokens === undefined) u.totalTokens = u.inputTokens + u.outputTokens;
  return u;
}

/**
 * A complete assistant message.
 *
 * @example
 * assistantMessage([{ type: 'text', text: 'Hi' }], 'stop');
 */
export function assistantMessage(
  content: (TextPart | ThinkingPart | ToolCallPart)[],
  stopReason: FinishReason = 'stop',
  options: BuilderOptions = {},
): AssistantMessage {
  return {
    role: 'assistant',
    content,
    stopReason,
    usage: usage(options.usage),
    provider: options.provider ?? 'test',
    model: options.model ?? 'test-model',
    timestamp: 0,
  };
}

/**
 * The `finish` event of a message.
 *
 * @example
 * finishEvent(assistantMessage([{ type: 'text', text: 'Hi' }]));
 */
export function finishEvent(message: AssistantMessage): ModelEvent {
  return { type: 'finish', reason: message.stopReason, message };
}

function splitText(text: string, chunks: number | string[] | undefined): string[] {
  if (Array.isArray(chunks)) return chunks;
  const size = chunks ?? Math.max(1, Math.ceil(text.length / 3));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces.length ? pieces : [''];
}

/**
 * A model call that answers with text, streamed in pieces: `chunks: n` cuts it into pieces of
 * `n` characters (the size of a piece, not their number), `chunks: [...]` gives the pieces
 * themselves; by default pieces of a third of the text.
 *
 * @example
 * scriptedModel([textTurn('The answer is 42.', { chunks: 4, usage: { inputTokens: 20, outputTokens: 8 } })]); // 'The ', 'answ', …
 */
export function textTurn(
  text: string,
  options: BuilderOptions & { chunks?: number | string[]; stopReason?: FinishReason } = {},
): ScriptedTurn {
  const events: ModelEvent[] = splitText(text, options.chunks).map((piece) => ({
    type: 'text-delta',
    index: 0,
    text: piece,
  }));
  const message = assistantMessage([{ type: 'text', text }], options.stopReason ?? 'stop', options);
  events.push({ type: 'usage', usage: message.usage }, finishEvent(message));
  return { events };
}

/**
 * A tool call to script: `id` defaults to `call_<n>`.
 *
 * @example
 * const call: ScriptedCall = { name: 'read', argsText: '{"path": "READ' }; // malformed JSON
 */
export interface ScriptedCall {
  name: string;
  args?: unknown;
  id?: string;
  /** Raw argument text instead of `JSON.stringify(args)` (e.g. malformed JSON). */
  argsText?: string;
}

/**
 * A model call that asks for tools (optionally after some text). Arguments stream as JSON
 * text; `argsText` scripts malformed JSON.
 *
 * @example
 * toolCallTurn([{ name: 'read', args: { path: 'README.md' } }, { name: 'list', args: {} }], { text: 'Let me look.' });
 */
export function toolCallTurn(
  calls: ScriptedCall | ScriptedCall[],
  options: BuilderOptions & { text?: string; stopReason?: FinishReason } = {},
): ScriptedTurn {
  const list = Array.isArray(calls) ? calls : [calls];
  const events: ModelEvent[] = [];
  const content: (TextPart | ToolCallPart)[] = [];
  let index = 0;
  if (options.text) {
    events.push({ type: 'text-delta', index, text: options.text });
    content.push({ type: 'text', text: options.text });
    index++;
  }
  list.forEach((c, position) => {
    const argsText = c.argsText ?? JSON.stringify(c.args ?? {});
    // When none is given, an id from the call itself: the same script gives the same ids every
    // time, in call order within the message, with no counter kept beside the builders.
    const id = c.id ?? `call_${position}_${fingerprint(`${c.name}\u0000${argsText}`)}`;
    const part: ToolCallPart = { type: 'tool-call', id, name: c.name, args: c.args ?? {}, argsText };
    try {
      part.args = argsText === '' ? {} : JSON.parse(argsText);
    } catch (error) {
      part.args = {};
      part.argsError = error instanceof Error ? error.message : String(error);
    }
    events.push(
      { type: 'toolcall-start', index, id, name: c.name },
      { type: 'toolcall-delta', index, argsText },
      { type: 'toolcall-end', index, call: part },
    );
    content.push(part);
    index++;
  });
  const message = assistantMessage(content, options.stopReason ?? 'tool-calls', options);
  events.push({ type: 'usage', usage: message.usage }, finishEvent(message));
  return { events };
}

/** A short hex fingerprint of `text` (FNV-1a, 32 bits). */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * A model call that fails, optionally after some events (e.g. a cut mid-stream).
 *
 * @example
 * errorTurn(new RateLimitError('Too many requests', { retryAfterMs: 2000 }));
 */
export function errorTurn(error: unknown, before: ModelEvent[] = []): ScriptedTurn {
  return { events: before, error };
}

/**
 * The events of `turn` before its `finish`: a stream that ends without its terminal event.
 *
 * @example
 * scriptedModel([truncatedTurn(textTurn('Hello world'))]); // → PartialStreamError in the run
 */
export function truncatedTurn(turn: ScriptedTurn): ScriptedTurn {
  return { events: turn.events.filter((e) => e.type !== 'finish') };
}
