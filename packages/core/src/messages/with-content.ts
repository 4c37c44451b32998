import type { AssistantMessage, AssistantPart } from './types.js';

/**
 * A copy of the assistant message with new content and usage. Written out field by field:
 * object spread costs ~30x more in V8, and this runs once per streamed delta (the message
 * builder and the wire decoder).
 *
 * @example
 * const grown = withContent(message, [...message.content, part], message.usage);
 */
export function withContent(
  m: AssistantMessage,
  content: AssistantPart[],
  usage: AssistantMessage['usage'],
): AssistantMessage {
  const next: AssistantMessage = {
    role: 'assistant',
    content,
    stopReason: m.stopReason,
    usage,
    provider: m.provider,
    model: m.model,
    timestamp: m.timestamp,
  };
  if (m.errorMessage !== undefined) next.errorMessage = m.errorMessage;
  if (m.responseId !== undefined) next.responseId = m.responseId;
  if (m.providerMetadata !== undefined) next.providerMetadata = m.providerMetadata;
  return next;
}
