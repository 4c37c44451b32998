import type { StopReason } from '@anthropic-ai/sdk/resources/messages';
import type { FinishReason } from '@rxagent/core';

/**
 * Maps Anthropic's `stop_reason` to the core's `FinishReason`. A missing reason (a
 * `message_stop` without `message_delta`) is a normal stop; reasons newer than this adapter
 * are treated as `stop` too, so a new API value never fails a run.
 *
 * @param reason `message_delta.delta.stop_reason` as received.
 * @return The finish reason of the assistant message.
 *
 * @example
 * mapAnthropicStopReason('tool_use'); // 'tool-calls'
 * mapAnthropicStopReason('refusal'); // 'content-filter'
 */
export function mapAnthropicStopReason(reason: string | null | undefined): FinishReason {
  const known = reason as StopReason | null | undefined;
  switch (known) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'tool_use':
      return 'tool-calls';
    case 'refusal':
      return 'content-filter';
    case null:
    case undefined:
      return 'stop';
    default: {
      const _unknown: never = known;
      return 'stop';
    }
  }
}
