import type {
  AssistantMessage,
  AssistantPart,
  FinishReason,
  ToolCallPart,
  Usage,
} from '../messages/types.js';

/**
 * What a `ChatModel` stream emits. `index` is the position of the content part in the
 * assistant message being built, so interleaved parallel tool calls stay apart. The stream
 * ends with one `finish` carrying the complete message. `part` sets a whole part at once (a
 * provider part, a generated image, or a streamed part completed with what only its end
 * carries: citations, an encrypted reasoning payload, redacted thinking).
 *
 * @example
 * const events: ModelEvent[] = [
 *   { type: 'text-delta', index: 0, text: 'Hel' },
 *   { type: 'text-delta', index: 0, text: 'lo' },
 *   { type: 'finish', reason: 'stop', message },
 * ];
 */
export type ModelEvent =
  | { type: 'text-delta'; index: number; text: string }
  | { type: 'thinking-delta'; index: number; text: string; signature?: string }
  | { type: 'part'; index: number; part: AssistantPart }
  | { type: 'toolcall-start'; index: number; id: string; name: string }
  | { type: 'toolcall-delta'; index: number; argsText: string }
  | { type: 'toolcall-end'; index: number; call: ToolCallPart }
  | { type: 'usage'; usage: Usage }
  | { type: 'finish'; reason: FinishReason; message: AssistantMessage };

/**
 * The `type` tags of `ModelEvent`.
 *
 * @example
 * const isDelta = (type: ModelEventType) => type === 'text-delta' || type === 'thinking-delta';
 */
export type ModelEventType = ModelEvent['type'];
