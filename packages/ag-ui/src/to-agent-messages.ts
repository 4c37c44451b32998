import {
  emptyUsage,
  type AgentMessage,
  type AssistantMessage,
  type TextPart,
  type ToolCallPart,
} from '@rxagent/core';
import type { Message } from '@ag-ui/core';
import { AGUIInputError } from './ag-ui-errors.js';

type Content = Extract<Message, { role: 'user' }>['content'];

function text(content: Content | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function toolCallPart(
  call: NonNullable<Extract<Message, { role: 'assistant' }>['toolCalls']>[number],
): ToolCallPart {
  const argsText = call.function.arguments;
  try {
    return {
      type: 'tool-call',
      id: call.id,
      name: call.function.name,
      args: argsText ? JSON.parse(argsText) : {},
      argsText,
    };
  } catch (error) {
    return {
      type: 'tool-call',
      id: call.id,
      name: call.function.name,
      args: {},
      argsText,
      argsError: error instanceof Error ? error.message : String(error),
    };
  }
}

/**
 * An AG-UI conversation as rxagent messages (the transcript a run continues): user, system and
 * developer messages as text (developer as system), assistant messages with their text and
 * tool calls, tool messages as tool results of the call they answer. Reasoning and activity
 * messages are the front end's (left out). A tool message that answers no earlier call is an
 * `AGUIInputError`.
 *
 * @example
 * const messages = toAgentMessages(input.messages);
 * runAgent({ model, prompt: messages });
 */
export function toAgentMessages(messages: readonly Message[], now = 0): AgentMessage[] {
  const names = new Map<string, string>();
  const out: AgentMessage[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: text(message.content), timestamp: now });
        break;
      case 'system':
      case 'developer':
        out.push({ role: 'system', content: message.content, timestamp: now });
        break;
      case 'assistant': {
        const content: AssistantMessage['content'] = [];
        const said = text(message.content);
        if (said) content.push({ type: 'text', text: said } satisfies TextPart);
        for (const call of message.toolCalls ?? []) {
          names.set(call.id, call.function.name);
          content.push(toolCallPart(call));
        }
        const stopReason = message.toolCalls?.length ? 'tool-calls' : 'stop';
        out.push({
          role: 'assistant',
          content,
          stopReason,
          usage: emptyUsage(),
          provider: 'ag-ui',
          model: 'ag-ui',
          timestamp: now,
        });
        break;
      }
      case 'tool': {
        const toolName = names.get(message.toolCallId);
        if (toolName === undefined) {
          throw new AGUIInputError(
            `The tool message ${message.id} answers tool call ${message.toolCallId}, which no earlier assistant message made. ` +
              'Send the assistant message with that call before its result.',
          );
        }
        const body = typeof message.content === 'string' ? message.content : text(message.content);
        out.push({
          role: 'tool',
          toolCallId: message.toolCallId,
          toolName,
          content: [{ type: 'text', text: body }],
          isError: message.error !== undefined,
          timestamp: now,
        });
        break;
      }
      default:
        break;
    }
  }
  return out;
}
