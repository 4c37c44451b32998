import type { AssistantMessage } from '../messages/types.js';

/** What the model reads after it stopped on its output limit (agentcore's wording). */
export const LENGTH_RECOVERY_TEXT =
  'Output token limit hit. Resume directly - no apology, no recap of what you were doing. ' +
  'Pick up mid-thought if that is where the cut happened. Break remaining work into smaller pieces.';

/**
 * The message a model's `finish` stands for, made whole: missing fields filled from what was
 * streamed, the timestamp taken when the message started, and on a `length` stop the
 * truncated tool calls (arguments that did not parse) removed.
 *
 * @example
 * const message = finalizeAssistantMessage(finish.message, builder.message, startedAt);
 */
export function finalizeAssistantMessage(
  finished: Partial<AssistantMessage>,
  streamed: AssistantMessage,
  timestamp: number,
): AssistantMessage {
  const message: AssistantMessage = {
    ...streamed,
    ...finished,
    role: 'assistant',
    content: Array.isArray(finished.content) ? finished.content : streamed.content,
    usage: finished.usage ?? streamed.usage,
    stopReason: finished.stopReason ?? streamed.stopReason,
    timestamp,
  };
  if (message.stopReason === 'length') {
    message.content = message.content.filter((p) => p.type !== 'tool-call' || p.argsError === undefined);
  }
  return message;
}
