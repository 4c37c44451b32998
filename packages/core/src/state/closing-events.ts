import type { AgentEvent, ToolResult } from '../events/agent-event.js';
import { CANCELLED_TOOL_RESULT_TEXT, closeAbortedMessage } from '../messages/abort-marker.js';
import type { ToolResultMessage } from '../messages/types.js';
import type { AgentState } from './agent-state.js';
import { openToolCalls } from './terminate.js';

const CANCELLED: ToolResult = {
  content: [{ type: 'text', text: CANCELLED_TOOL_RESULT_TEXT }],
  isError: true,
};

/**
 * The events that close the transcript of a run cut short, read from its state (the one fold):
 * the partial answer being streamed ended as aborted; or the results of the open calls — those
 * that ended, else `Tool call was cancelled.` (with the `tool-start` / `tool-end` a call that never
 * ended did not get) — so the next request is accepted by strict providers. Empty when nothing
 * is open.
 *
 * @example
 * const closing = closingEvents(state, scheduler.now());
 */
export function closingEvents(state: AgentState, now: number): AgentEvent[] {
  if (state.streamingMessage)
    return [{ type: 'message-end', message: closeAbortedMessage(state.streamingMessage) }];
  const open = openToolCalls(state.messages);
  if (open.length === 0) return [];
  const events: AgentEvent[] = [];
  const results: ToolResultMessage[] = [];
  for (const call of open) {
    let result = state.finishedTools[call.id];
    if (!result) {
      result = CANCELLED;
      const started = state.activeTools.some((t) => t.toolCallId === call.id);
      if (!started)
        events.push({ type: 'tool-start', toolCallId: call.id, toolName: call.name, args: undefined });
      events.push({
        type: 'tool-end',
        toolCallId: call.id,
        toolName: call.name,
        args: undefined,
        result,
        isError: true,
        outcome: 'cancelled',
      });
    }
    results.push({
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      content: result.content,
      isError: result.isError,
      timestamp: now,
    });
  }
  for (const message of results)
    events.push({ type: 'message-start', message }, { type: 'message-end', message });
  return events;
}
