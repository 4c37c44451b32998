import { serializeError } from '../errors/serialize-error.js';
import { CANCELLED_TOOL_RESULT_TEXT, closeAbortedMessage } from '../messages/abort-marker.js';
import { toolErrorResult } from '../messages/message-helpers.js';
import type { ToolResult } from '../events/agent-event.js';
import type { AgentMessage, ToolCallPart } from '../messages/types.js';
import { isTerminal, type AgentState } from './agent-state.js';
import { appendMessages } from './transcript-log.js';

/**
 * Closes a transcript: every tool call without a result gets the result it finished with
 * (from `finished`) or a `Tool call was cancelled.` error result, so the next request is
 * accepted by strict providers. Returns the same array when nothing is open; otherwise a
 * read-only view with the results appended (the transcript is not copied).
 *
 * @example
 * const safe = closeTranscript(state.messages, scheduler.now());
 */
export function closeTranscript(
  messages: readonly AgentMessage[],
  timestamp = 0,
  finished: Readonly<Record<string, ToolResult>> = {},
): readonly AgentMessage[] {
  const missing = openToolCalls(messages);
  if (missing.length === 0) return messages;
  const results = missing.map((call): AgentMessage => {
    const result = finished[call.id];
    if (!result) return toolErrorResult(call, CANCELLED_TOOL_RESULT_TEXT, timestamp);
    return {
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      content: result.content,
      isError: result.isError,
      timestamp,
    };
  });
  return appendMessages(messages, ...results);
}

/**
 * The tool calls of a transcript's last assistant message that have no result yet, in call
 * order (only the last assistant message can have open calls: the loop always closes a batch).
 *
 * @example
 * const open = openToolCalls(state.messages);
 */
export function openToolCalls(messages: readonly AgentMessage[]): ToolCallPart[] {
  let last = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const role = (messages[i] as AgentMessage).role;
    if (role === 'assistant') {
      last = i;
      break;
    }
    if (role === 'user' || role === 'system') return [];
  }
  if (last < 0) return [];
  const assistant = messages[last];
  if (assistant?.role !== 'assistant') return [];
  const answered = new Set<string>();
  for (let i = last + 1; i < messages.length; i++) {
    const m = messages[i] as AgentMessage;
    if (m.role === 'tool') answered.add(m.toolCallId);
  }
  return assistant.content.filter((p): p is ToolCallPart => p.type === 'tool-call' && !answered.has(p.id));
}

/**
 * Moves a state to a terminal phase (`done`, `cancelled`, `error`) — unless it already is in
 * one: the first terminal wins and the step is kept. The transcript is closed (open tool calls
 * get a cancelled result; a streamed partial message is kept, marked aborted).
 *
 * @example
 * state$.next(terminate(state$.value, 'cancelled'));
 */
export function terminate(
  state: AgentState,
  phase: 'done' | 'cancelled' | 'error',
  error?: unknown,
  timestamp = 0,
): AgentState {
  if (isTerminal(state.phase)) return state;
  let messages = state.messages;
  if (state.streamingMessage && phase === 'cancelled' && state.streamingMessage.content.length > 0) {
    messages = appendMessages(messages, closeAbortedMessage(state.streamingMessage));
  }
  messages = closeTranscript(messages, timestamp, state.finishedTools);
  const next: AgentState = {
    ...state,
    phase,
    messages,
    streamingMessage: undefined,
    pendingToolCalls: [],
    activeTools: [],
    finishedTools: {},
    pendingApprovals: [],
    isRunning: false,
  };
  if (phase === 'error') next.error = serializeError(error);
  return next;
}
