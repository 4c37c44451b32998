import type { AgentMessage } from '../messages/types.js';
import { AppendLog } from '../util/append-log.js';

// A view is a read-only array, so the reducer stays pure: the log behind it is found here
// rather than kept in the state, and a plain array (a prior transcript, an import) is copied
// once into a new log.
const logs = new WeakMap<readonly AgentMessage[], AppendLog<AgentMessage>>();

/**
 * The append-only log behind a transcript view made by `appendMessages` (undefined for a
 * plain array).
 *
 * @example
 * const log = transcriptLog(state.messages); // the AppendLog whose view() is state.messages
 */
export function transcriptLog(messages: readonly AgentMessage[]): AppendLog<AgentMessage> | undefined {
  return logs.get(messages);
}

/**
 * A transcript with `added` after `messages`, as a read-only array view, in O(added)
 * amortised: appending to a view extends its log without copying it, and never changes
 * `messages` itself (an older view keeps its length). A plain array is copied once.
 *
 * @example
 * state.messages = appendMessages(state.messages, event.message);
 */
export function appendMessages(
  messages: readonly AgentMessage[],
  ...added: AgentMessage[]
): readonly AgentMessage[] {
  if (added.length === 0) return messages;
  const log = (logs.get(messages) ?? AppendLog.of(messages)).append(...added);
  const view = log.view();
  logs.set(view, log);
  return view;
}
