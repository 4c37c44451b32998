import type { StepResult } from '../events/agent-event.js';
import type { TurnContext } from './loop-event.js';
import { toolCalls } from '../messages/message-helpers.js';
import { emptyUsage } from '../messages/usage.js';

/**
 * The `StepResult` of a turn so far (its message, calls and results).
 *
 * @example
 * const step = stepResultOf(turn);
 */
export function stepResultOf(turn: TurnContext): StepResult {
  const message = turn.assistant;
  if (!message) {
    throw new Error('stepResultOf: the turn has no assistant message yet (is llmStep in the pipeline?).');
  }
  return {
    step: turn.step,
    message,
    toolCalls: toolCalls(message),
    toolResults: turn.toolResults,
    usage: message.usage ?? emptyUsage(),
    finishReason: message.stopReason,
  };
}
