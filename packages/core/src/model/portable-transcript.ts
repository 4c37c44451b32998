import type { AssistantMessage, Message } from '../messages/types.js';

/**
 * The transcript made safe to send to `provider`: assistant messages written by another
 * provider lose what only their author can read back (thinking signatures and redacted
 * thinking, which Anthropic verifies and OpenAI cannot use). The thinking text stays in the
 * transcript; adapters send unsigned thinking to no provider. Messages that need no change
 * are the same objects, and the input is never changed.
 *
 * @example
 * const forOpenAI = portableTranscript(anthropicTranscript, 'openai');
 */
export function portableTranscript(messages: readonly Message[], provider: string): readonly Message[] {
  let changed = false;
  const out = messages.map((message) => {
    if (message.role !== 'assistant' || message.provider === provider) return message;
    const portable = portableAssistant(message);
    if (portable !== message) changed = true;
    return portable;
  });
  return changed ? out : messages;
}

function portableAssistant(message: AssistantMessage): AssistantMessage {
  if (
    !message.content.some(
      (p) => p.type === 'thinking' && (p.signature !== undefined || p.redacted !== undefined),
    )
  ) {
    return message;
  }
  const content = message.content.flatMap((part): AssistantMessage['content'] => {
    if (part.type !== 'thinking') return [part];
    if (part.redacted !== undefined) return []; // opaque data: nothing another provider could read
    return [{ type: 'thinking', text: part.text }];
  });
  return { ...message, content };
}
