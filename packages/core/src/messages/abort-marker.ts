import type { AssistantMessage, ToolCallPart } from './types.js';
import { emptyUsage } from './usage.js';

/**
 * The abort marker the model reads after a run was interrupted while it was answering.
 *
 * @example
 * assistantText(abortMarker('inference', 'openai', 'gpt-4o-mini', 0)); // ABORT_MARKER_TEXT
 */
export const ABORT_MARKER_TEXT = '[Request interrupted by user]';
/**
 * The abort marker after an interruption while tools were running.
 *
 * @example
 * assistantText(abortMarker('tool-use', 'openai', 'gpt-4o-mini', 0)); // ABORT_MARKER_TOOL_USE_TEXT
 */
export const ABORT_MARKER_TOOL_USE_TEXT = '[Request interrupted by user for tool use]';
/**
 * The result given to a tool call that was cut off by an abort or never ran.
 *
 * @example
 * const cancelled = messages.filter((m) => m.role === 'tool' && contentText(m) === CANCELLED_TOOL_RESULT_TEXT);
 */
export const CANCELLED_TOOL_RESULT_TEXT = 'Tool call was cancelled.';

/**
 * The assistant message that marks an interruption (`stopReason: 'aborted'`). It is sent to
 * the model on the next call, so the model knows it was interrupted.
 *
 * @example
 * const marker = abortMarker('tool-use', 'openai', 'gpt-4o-mini', scheduler.now());
 */
export function abortMarker(
  phase: 'inference' | 'tool-use',
  provider: string,
  model: string,
  timestamp: number,
): AssistantMessage {
  return {
    role: 'assistant',
    content: [{ type: 'text', text: phase === 'tool-use' ? ABORT_MARKER_TOOL_USE_TEXT : ABORT_MARKER_TEXT }],
    stopReason: 'aborted',
    usage: emptyUsage(),
    provider,
    model,
    timestamp,
  };
}

/**
 * A partial assistant message closed by an abort: its tool calls (which never ran) removed
 * and the marker text appended.
 *
 * @example
 * const closed = closeAbortedMessage(state.streamingMessage);
 */
export function closeAbortedMessage(partial: AssistantMessage): AssistantMessage {
  const content = partial.content.filter((p): p is Exclude<typeof p, ToolCallPart> => p.type !== 'tool-call');
  return {
    ...partial,
    content: [...content, { type: 'text', text: ABORT_MARKER_TEXT }],
    stopReason: 'aborted',
  };
}
