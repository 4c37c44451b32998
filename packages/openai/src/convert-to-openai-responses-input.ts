import type {
  AssistantMessage,
  ImagePart,
  Message,
  TextPart,
  ThinkingPart,
  ToolCallPart,
  ToolResultMessage,
} from '@rxagent/core';
import type {
  ResponseFunctionCallOutputItem,
  ResponseInputContent,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import { mcpApprovalRequestItem, mcpApprovalResponseItem } from './mcp-approval.js';
import { imageUrl, isSkippedAssistant, toolArgumentsText } from './openai-request-parts.js';

/**
 * The transcript as Responses API `input` items (the system prompt goes to `instructions`,
 * not here). Assistant text → assistant messages (one per `phase`, which is sent back), tool
 * calls → `function_call` items (with `call_id`) or the native kind they came as
 * (`custom_tool_call`, `local_shell_call`, `shell_call`, `apply_patch_call`, an MCP approval
 * request), tool results → the matching `…_output` item (an `mcp_approval_response`) (text, or text and `input_image` items when the result has
 * images). OpenAI reasoning (thinking parts with an item `id`) goes back as `reasoning` items
 * with their `encrypted_content` (without it, only when responses are stored: an unstored id
 * cannot be referenced); OpenAI provider parts (server tools' items) go back
 * verbatim; other providers' thinking and parts are left out. Failed empty assistant turns are
 * dropped.
 *
 * @example
 * convertToOpenAIResponsesInput([userMessage('Hi')]); // [{ role: 'user', content: 'Hi' }]
 */
export function convertToOpenAIResponsesInput(
  messages: readonly Message[],
  options: { store?: boolean } = {},
): ResponseInputItem[] {
  const out: ResponseInputItem[] = [];
  // The kind each call came as, so its result goes back as the matching output item.
  const callKinds = new Map<string, string>();
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
        for (const part of message.content) {
          if (part.type === 'tool-call' && part.providerKind) callKinds.set(part.id, part.providerKind);
        }
        out.push(...assistantItems(message, options.store === true));
        break;
      case 'tool':
        out.push(toolResultItem(message, callKinds.get(message.toolCallId)));
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

function assistantItems(message: AssistantMessage, stored: boolean): ResponseInputItem[] {
  if (isSkippedAssistant(message)) return [];
  const ours = message.provider === 'openai';
  const items: ResponseInputItem[] = [];
  let text = '';
  let phase: string | undefined;
  let reasoning: ReasoningItem | undefined;
  const flushText = () => {
    if (text) {
      items.push({
        role: 'assistant',
        content: text,
        ...(phase && { phase: phase as 'commentary' | 'final_answer' }),
      });
    }
    text = '';
  };
  for (const part of message.content) {
    if (part.type !== 'thinking') reasoning = undefined;
    if (part.type === 'text') {
      if (part.phase !== phase) flushText();
      phase = part.phase;
      text += part.text;
      continue;
    }
    flushText();
    if (part.type === 'tool-call') {
      items.push(callItem(part));
    } else if (part.type === 'thinking' && ours && part.id && (part.encrypted || stored)) {
      // Consecutive parts of one reasoning item (its summaries) go back as that one item.
      if (reasoning?.id === part.id) reasoning.summary.push({ type: 'summary_text', text: part.text });
      else items.push((reasoning = reasoningItem(part)));
    } else if (part.type === 'provider' && part.provider === 'openai') {
      items.push(part.data as ResponseInputItem);
    }
  }
  flushText();
  return items;
}

type ReasoningItem = Extract<ResponseInputItem, { type: 'reasoning' }>;

function reasoningItem(part: ThinkingPart): ReasoningItem {
  return {
    type: 'reasoning',
    id: part.id!,
    summary: part.text ? [{ type: 'summary_text', text: part.text }] : [],
    ...(part.encrypted && { encrypted_content: part.encrypted }),
  };
}

function callItem(part: ToolCallPart): ResponseInputItem {
  switch (part.providerKind) {
    case 'mcp_approval_request':
      return mcpApprovalRequestItem(part);
    case 'custom_tool_call':
      return {
        type: 'custom_tool_call',
        call_id: part.id,
        name: part.name,
        input: typeof part.args === 'string' ? part.args : JSON.stringify(part.args ?? ''),
      };
    case 'local_shell_call':
      return {
        type: 'local_shell_call',
        id: part.itemId ?? part.id,
        call_id: part.id,
        action: part.args,
        status: 'completed',
      } as ResponseInputItem;
    case 'shell_call':
      return {
        type: 'shell_call',
        call_id: part.id,
        action: part.args,
        status: 'completed',
      } as ResponseInputItem;
    case 'apply_patch_call':
      return {
        type: 'apply_patch_call',
        call_id: part.id,
        operation: part.args,
        status: 'completed',
      } as ResponseInputItem;
    default:
      return { type: 'function_call', call_id: part.id, name: part.name, arguments: toolArgumentsText(part) };
  }
}

function toolResultItem(message: ToolResultMessage, kind: string | undefined): ResponseInputItem {
  const text = () => message.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  switch (kind) {
    case 'mcp_approval_request':
      return mcpApprovalResponseItem(message);
    case 'custom_tool_call':
      return {
        type: 'custom_tool_call_output',
        call_id: message.toolCallId,
        output: toolOutput(message) as Extract<
          ResponseInputItem,
          { type: 'custom_tool_call_output' }
        >['output'],
      };
    case 'local_shell_call':
      return { type: 'local_shell_call_output', id: message.toolCallId, output: text() };
    case 'shell_call':
      return {
        type: 'shell_call_output',
        call_id: message.toolCallId,
        output: [
          { stdout: text(), stderr: '', outcome: { type: 'exit', exit_code: message.isError ? 1 : 0 } },
        ],
      };
    case 'apply_patch_call':
      return {
        type: 'apply_patch_call_output',
        call_id: message.toolCallId,
        status: message.isError ? 'failed' : 'completed',
        output: text(),
      };
    default:
      return { type: 'function_call_output', call_id: message.toolCallId, output: toolOutput(message) };
  }
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
