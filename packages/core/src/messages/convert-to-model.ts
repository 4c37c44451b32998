import { isEmptyAssistant } from './message-sequence.js';
import type { AgentMessage, Message } from './types.js';

/**
 * Whether a transcript message is sent to the model: custom messages and assistant messages
 * with no content (a failed call) are kept for the record only.
 *
 * @example
 * const sent = messages.filter(isModelVisible);
 */
export function isModelVisible(message: AgentMessage): message is Message {
  if (message.role === 'custom') return false;
  if (message.role === 'assistant' && isEmptyAssistant(message)) return false;
  return true;
}

/**
 * The messages a provider sees for a transcript: custom messages and empty assistant
 * messages dropped. The abort marker is kept, so the model knows it was interrupted.
 *
 * @example
 * const request = { messages: convertToModelMessages(agent.state$.value.messages) };
 */
export function convertToModelMessages(messages: readonly AgentMessage[]): Message[] {
  return messages.filter(isModelVisible);
}
