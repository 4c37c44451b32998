import type { AssistantMessage, ChatRequest, Message, UserMessage } from '@rxagent/core';
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import {
  imageUrl,
  isSkippedAssistant,
  systemText,
  toolArgumentsText,
  toolResultText,
} from './openai-request-parts.js';

/**
 * The transcript (and system prompt) as Chat Completions `messages`. Thinking parts are not
 * sent back; failed empty assistant turns are dropped; tool results become `role: 'tool'`
 * messages with text only (images become a short note, error results keep their text as is).
 *
 * @example
 * convertToOpenAIChatMessages('Be brief.', [userMessage('Hi')]);
 * // [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hi' }]
 */
export function convertToOpenAIChatMessages(
  system: ChatRequest['system'],
  messages: readonly Message[],
): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  const prompt = systemText(system);
  if (prompt !== undefined) out.push({ role: 'system', content: prompt });
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: message.content });
        break;
      case 'user':
        out.push({ role: 'user', content: userContent(message) });
        break;
      case 'assistant': {
        const converted = assistantMessage(message);
        if (converted) out.push(converted);
        break;
      }
      case 'tool':
        out.push({
          role: 'tool',
          tool_call_id: message.toolCallId,
          content: toolResultText(message.content),
        });
        break;
    }
  }
  return out;
}

function userContent(message: UserMessage): string | ChatCompletionContentPart[] {
  if (typeof message.content === 'string') return message.content;
  const parts: ChatCompletionContentPart[] = [];
  for (const part of message.content) {
    if (part.type === 'text') {
      parts.push({ type: 'text', text: part.text });
    } else {
      const url = imageUrl(part);
      if (url) parts.push({ type: 'image_url', image_url: { url } });
    }
  }
  return parts;
}

function assistantMessage(message: AssistantMessage): ChatCompletionAssistantMessageParam | undefined {
  if (isSkippedAssistant(message)) return undefined;
  let text = '';
  const toolCalls: NonNullable<ChatCompletionAssistantMessageParam['tool_calls']> = [];
  for (const part of message.content) {
    if (part.type === 'text') text += part.text;
    else if (part.type === 'tool-call' && part.providerKind === 'custom_tool_call') {
      const input = typeof part.args === 'string' ? part.args : JSON.stringify(part.args ?? '');
      toolCalls.push({ id: part.id, type: 'custom', custom: { name: part.name, input } });
    } else if (part.type === 'tool-call') {
      toolCalls.push({
        id: part.id,
        type: 'function',
        function: { name: part.name, arguments: toolArgumentsText(part) },
      });
    }
  }
  if (toolCalls.length === 0) return text ? { role: 'assistant', content: text } : undefined;
  return { role: 'assistant', content: text || null, tool_calls: toolCalls };
}
