import type {
  AssistantMessage,
  FinishReason,
  ToolCallPart,
  ToolResultMessage,
  Usage,
} from '../messages/types.js';

/**
 * What one turn (a model call and its tools) produced.
 *
 * @example
 * if (event.type === 'turn-end') console.log(event.step.finishReason, event.step.toolCalls.length);
 */
export interface StepResult {
  step: number;
  message: AssistantMessage;
  toolCalls: ToolCallPart[];
  toolResults: ToolResultMessage[];
  usage: Usage;
  finishReason: FinishReason;
}
