import type {
  AssistantMessage,
  AssistantPart,
  FinishReason,
  ToolCallPart,
  Usage,
} from '../messages/types.js';
import type { RateLimitInfo } from './rate-limit-info.js';

/**
 * What a `ChatModel` stream emits. `index` is the position of the content part in the
 * assistant message being built, so interleaved parallel tool calls stay apart. The stream
 * ends with one `finish` carrying the complete message. `part` sets a whole part at once (a
 * provider part, a generated image, or a streamed part completed with what only its end
 * carries: citations, an encrypted reasoning payload, redacted thinking). `rate-limit` reports
 * the provider's rate-limit headers as the response starts (`ignored` names the headers it
 * sent that could not be read); it is not part of the message (the loop ignores it, a
 * `rateLimited` model follows it).
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
  | { type: 'rate-limit'; limits: RateLimitInfo; ignored?: string[] }
  | { type: 'finish'; reason: FinishReason; message: AssistantMessage };

/**
 * The `type` tags of `ModelEvent`.
 *
 * @example
 * const isDelta = (type: ModelEventType) => type === 'text-delta' || type === 'thinking-delta';
 */
export type ModelEventType = ModelEvent['type'];
