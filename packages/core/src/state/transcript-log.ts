import type { AgentMessage } from '../messages/types.js';
import { AppendLog, logOfView } from '../util/append-log.js';

/**
 * The append-only log behind a transcript view made by `appendMessages` (undefined for a
 * plain array).
 *
 * @example
 * const log = transcriptLog(state.messages); // the AppendLog whose view() is state.messages
 */
export function transcriptLog(messages: readonly AgentMessage[]): AppendLog<AgentMessage> | undefined {
  return logOfView(messages);
}

/**
 * A transcript with `added` after `messages`, as a read-only array view, in O(added)
 * amortised: appending to a view extends the log it shows without copying it, and never
 * changes `messages` itself (an older view keeps its length; appending to it again forks, which
 * copies its prefix once). A plain array is copied once. The reducer stays pure: the log is
 * found through the view itself, never in a table beside the state.
 *
 * @example
 * state.messages = appendMessages(state.messages, event.message);
 */
export function appendMessages(
  messages: readonly AgentMessage[],
  ...added: AgentMessage[]
): readonly AgentMessage[] {
  if (added.length === 0) return messages;
  return (logOfView(messages) ?? AppendLog.of(messages)).append(...added).view();
}
