import type { AssistantPart } from '../messages/types.js';

/**
 * A streamed piece of the assistant message. `kind: 'part'` sets the whole part at `index`
 * (a provider part such as a server tool's call or result, a generated image, or a streamed
 * part completed with its citations); its `text` is empty and `part` carries it.
 *
 * @example
 * const delta: MessageDelta = { kind: 'text', text: 'Hel', index: 0 };
 */
export interface MessageDelta {
  kind: 'text' | 'thinking' | 'toolcall' | 'part';
  text: string;
  /** Position of the content part in the message. */
  index: number;
  /** With `kind: 'part'`: the part now at `index`. */
  part?: AssistantPart;
}
