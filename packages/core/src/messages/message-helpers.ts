import type {
  AgentMessage,
  AssistantMessage,
  ImagePart,
  TextPart,
  ToolCallPart,
  ToolResultMessage,
  UserMessage,
} from './types.js';

/**
 * Builds a user message from text or content parts.
 *
 * @example
 * runAgent({ model, prompt: userMessage('What is in this folder?') });
 */
export function userMessage(content: string | (TextPart | ImagePart)[], timestamp = 0): UserMessage {
  return { role: 'user', content, timestamp };
}

/**
 * The text of an assistant message (its text parts joined), or '' for anything else.
 *
 * @example
 * const answer = assistantText(result.messages.at(-1));
 */
export function assistantText(message: AgentMessage | undefined): string {
  if (message?.role !== 'assistant') return '';
  let text = '';
  for (const part of message.content) if (part.type === 'text') text += part.text;
  return text;
}

/**
 * The tool calls of an assistant message (empty for anything else).
 *
 * @example
 * for (const call of toolCalls(message)) console.log(call.name, call.args);
 */
export function toolCalls(message: AgentMessage | undefined): ToolCallPart[] {
  if (message?.role !== 'assistant') return [];
  const calls: ToolCallPart[] = [];
  for (const part of message.content) if (part.type === 'tool-call') calls.push(part);
  return calls;
}

/**
 * The text of a tool result or user message (text parts joined).
 *
 * @example
 * expect(contentText(resultMessage)).toContain('timed out');
 */
export function contentText(message: UserMessage | ToolResultMessage | AssistantMessage): string {
  if (typeof message.content === 'string') return message.content;
  let text = '';
  for (const part of message.content) if (part.type === 'text') text += part.text;
  return text;
}

/**
 * An error tool result with the given text (what the model reads when a call fails).
 *
 * @example
 * const result = toolErrorResult(call, 'Tool call was cancelled.', scheduler.now());
 */
export function toolErrorResult(
  call: Pick<ToolCallPart, 'id' | 'name'>,
  text: string,
  timestamp: number,
): ToolResultMessage {
  return {
    role: 'tool',
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: 'text', text }],
    isError: true,
    timestamp,
  };
}
