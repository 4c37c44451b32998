import type { AssistantMessage, ImagePart, Message, TextPart, ToolResultMessage } from '@rxagent/core';
import type {
  ResponseFunctionCallOutputItem,
  ResponseInputContent,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import { imageUrl, isSkippedAssistant, toolArgumentsText } from './openai-request-parts.js';

/**
 * The transcript as Responses API `input` items (the system prompt goes to `instructions`,
 * not here). Assistant text → an assistant message, tool calls → `function_call` items (with
 * `call_id`), tool results → `function_call_output` (text, or text and `input_image` items
 * when the result has images). Thinking parts are not sent back (with `store: false` the
 * reasoning items could not be referenced anyway); failed empty assistant turns are dropped.
 *
 * @example
 * convertToOpenAIResponsesInput([userMessage('Hi')]); // [{ role: 'user', content: 'Hi' }]
 */
export function convertToOpenAIResponsesInput(messages: readonly Message[]): ResponseInputItem[] {
  const out: ResponseInputItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        out.push({ role: 'system', content: message.content });
        break;
      case 'user':
        out.push({
          role: 'user',
          content: typeof message.content === 'string' ? message.content : inputContent(message.content),
        });
        break;
      case 'assistant':
        out.push(...assistantItems(message));
        break;
      case 'tool':
        out.push({ type: 'function_call_output', call_id: message.toolCallId, output: toolOutput(message) });
        break;
    }
  }
  return out;
}

function inputContent(parts: readonly (TextPart | ImagePart)[]): ResponseInputContent[] {
  const content: ResponseInputContent[] = [];
  for (const part of parts) {
    if (part.type === 'text') {
      content.push({ type: 'input_text', text: part.text });
    } else {
      const url = imageUrl(part);
      if (url) content.push({ type: 'input_image', image_url: url, detail: 'auto' });
    }
  }
  return content;
}

function assistantItems(message: AssistantMessage): ResponseInputItem[] {
  if (isSkippedAssistant(message)) return [];
  const items: ResponseInputItem[] = [];
  let text = '';
  const flushText = () => {
    if (text) items.push({ role: 'assistant', content: text });
    text = '';
  };
  for (const part of message.content) {
    if (part.type === 'text') {
      text += part.text;
    } else if (part.type === 'tool-call') {
      flushText();
      items.push({
        type: 'function_call',
        call_id: part.id,
        name: part.name,
        arguments: toolArgumentsText(part),
      });
    }
  }
  flushText();
  return items;
}

function toolOutput(message: ToolResultMessage): string | ResponseFunctionCallOutputItem[] {
  if (message.content.every((part) => part.type === 'text')) {
    return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  }
  const items: ResponseFunctionCallOutputItem[] = [];
  for (const part of message.content) {
    if (part.type === 'text') {
      items.push({ type: 'input_text', text: part.text });
    } else {
      const url = imageUrl(part);
      if (url) items.push({ type: 'input_image', image_url: url, detail: 'auto' });
    }
  }
  return items;
}
