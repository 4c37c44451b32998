import { toolErrorResult } from './message-helpers.js';
import type { AgentMessage, AssistantMessage, ToolCallPart, ToolResultMessage } from './types.js';

/**
 * Text of the synthetic result given to a tool call that never got one.
 *
 * @example
 * const { messages: repaired } = repairMessageSequence(messages);
 * // each unanswered tool call is now followed by an error result with MISSING_TOOL_RESULT_TEXT
 */
export const MISSING_TOOL_RESULT_TEXT = 'Tool result missing (conversation was truncated or interrupted).';

/**
 * One problem found in a transcript.
 *
 * @example
 * const issue: MessageSequenceIssue = { kind: 'missing-tool-result', index: 3, toolCallId: 'call_1', toolName: 'read' };
 */
export interface MessageSequenceIssue {
  kind: 'missing-tool-result' | 'orphan-tool-result' | 'invalid-message';
  /** Index of the message the issue is about. */
  index: number;
  toolCallId?: string;
  toolName?: string;
  detail?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function isValidPart(part: unknown, allowed: readonly string[]): boolean {
  if (!isRecord(part) || typeof part.type !== 'string' || !allowed.includes(part.type)) return false;
  switch (part.type) {
    case 'text':
    case 'thinking':
      return typeof part.text === 'string';
    case 'tool-call':
      return typeof part.id === 'string' && part.id !== '' && typeof part.name === 'string';
    case 'provider':
      return typeof part.provider === 'string' && typeof part.kind === 'string';
    default:
      return true;
  }
}

const USER_PARTS = ['text', 'image'];
const ASSISTANT_PARTS = ['text', 'thinking', 'tool-call', 'image', 'provider'];

function isValidMessageShape(m: unknown): m is AgentMessage {
  if (!isRecord(m)) return false;
  const content = m.content;
  switch (m.role) {
    case 'system':
      return typeof content === 'string';
    case 'user':
      return (
        typeof content === 'string' ||
        (Array.isArray(content) && content.every((p) => isValidPart(p, USER_PARTS)))
      );
    case 'assistant':
      return Array.isArray(content) && content.every((p) => isValidPart(p, ASSISTANT_PARTS));
    case 'tool':
      return (
        typeof m.toolCallId === 'string' &&
        Array.isArray(content) &&
        content.every((p) => isValidPart(p, USER_PARTS))
      );
    case 'custom':
      return typeof m.customType === 'string';
    default:
      return false;
  }
}

/**
 * Lists what makes a transcript unacceptable to strict providers: tool calls without a
 * result in the tool messages that follow them, tool results that answer no call, and
 * messages of an unknown shape. An empty list means the transcript is valid.
 *
 * @example
 * const issues = validateMessageSequence(agent.state$.value.messages);
 * if (issues.length) console.warn(issues);
 */
export function validateMessageSequence(messages: readonly unknown[]): MessageSequenceIssue[] {
  const issues: MessageSequenceIssue[] = [];
  let open = new Map<string, ToolCallPart>();
  let openAt = -1;
  const closeBatch = () => {
    for (const call of open.values()) {
      issues.push({ kind: 'missing-tool-result', index: openAt, toolCallId: call.id, toolName: call.name });
    }
    open = new Map();
  };
  messages.forEach((m, index) => {
    if (!isValidMessageShape(m)) {
      issues.push({
        kind: 'invalid-message',
        index,
        detail: 'not a message with a known role and valid content parts',
      });
      return;
    }
    if (m.role === 'custom') return;
    if (m.role === 'tool') {
      if (open.has(m.toolCallId)) open.delete(m.toolCallId);
      else issues.push({ kind: 'orphan-tool-result', index, toolCallId: m.toolCallId, toolName: m.toolName });
      return;
    }
    closeBatch();
    if (m.role === 'assistant') {
      openAt = index;
      for (const part of m.content) if (part.type === 'tool-call') open.set(part.id, part);
    }
  });
  closeBatch();
  return issues;
}

/**
 * Returns a valid copy of a transcript: a tool call without a result gets a synthetic error
 * result (in call order, after the real ones of its batch), results that answer no call are
 * dropped, and so are messages of unknown shape. `repairs` lists what was changed; the input
 * is not modified.
 *
 * @example
 * const { messages, repairs } = repairMessageSequence(imported);
 * if (repairs.length) console.warn(`repaired ${repairs.length} problems`);
 */
export function repairMessageSequence(
  messages: readonly AgentMessage[],
  timestamp = 0,
): { messages: AgentMessage[]; repairs: MessageSequenceIssue[] } {
  const repairs = validateMessageSequence(messages);
  if (repairs.length === 0) return { messages: messages.slice(), repairs };
  const out: AgentMessage[] = [];
  let i = 0;
  while (i < messages.length) {
    const m = messages[i] as unknown;
    i++;
    if (!isValidMessageShape(m)) continue;
    if (m.role === 'tool') continue; // results outside a batch are orphans
    out.push(m);
    if (m.role !== 'assistant') continue;
    const calls = m.content.filter((p): p is ToolCallPart => p.type === 'tool-call');
    // The batch: the tool (and custom) messages right after this assistant message.
    const results = new Map<string, ToolResultMessage>();
    const customs: AgentMessage[] = [];
    while (i < messages.length) {
      const next = messages[i] as unknown;
      if (!isValidMessageShape(next)) {
        i++;
        continue;
      }
      if (next.role === 'tool') {
        if (!results.has(next.toolCallId)) results.set(next.toolCallId, next);
      } else if (next.role === 'custom') customs.push(next);
      else break;
      i++;
    }
    for (const call of calls) {
      out.push(results.get(call.id) ?? toolErrorResult(call, MISSING_TOOL_RESULT_TEXT, timestamp));
    }
    out.push(...customs);
  }
  return { messages: out, repairs };
}

/**
 * True for an assistant message that carries nothing a provider should see again: an error
 * with no content. Such messages stay in the transcript for the record but are not sent.
 *
 * @example
 * const sendable = messages.filter((m) => m.role !== 'assistant' || !isEmptyAssistant(m));
 */
export function isEmptyAssistant(message: AssistantMessage): boolean {
  return message.content.length === 0;
}
