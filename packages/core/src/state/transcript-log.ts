import type { AgentMessage } from '../messages/types.js';
import { AppendLog } from '../util/append-log.js';

// A view is a read-only array, so the reducer stays pure: the log behind a view is found here
// rather than kept in the state. A plain array (a prior transcript, an import) is copied once.
//
// A fold appends to the view it made last, so that one (the tip) is kept in a slot. Keying
// every view in the WeakMap instead costs an entry per message that the GC has to trace:
// folding 100,000 steps was ~4x slower per step than 10,000. The WeakMap only gets views
// that may still grow: a tip another line of appends pushed out of the slot (two folds
// interleaved), or a tip parked at the end of a fold (so the slot does not hold a finished
// transcript). A view that was appended to and left is not kept: appending to it again is
// a fork, which copies its prefix once, as AppendLog's own forks do.
let tip: { view: readonly AgentMessage[]; log: AppendLog<AgentMessage> } | undefined;
const logs = new WeakMap<readonly AgentMessage[], AppendLog<AgentMessage>>();

/**
 * The append-only log behind a transcript view made by `appendMessages` (undefined for a
 * plain array, or a view that was appended to since).
 *
 * @example
 * const log = transcriptLog(state.messages); // the AppendLog whose view() is state.messages
 */
export function transcriptLog(messages: readonly AgentMessage[]): AppendLog<AgentMessage> | undefined {
  return tip?.view === messages ? tip.log : logs.get(messages);
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
  const fromTip = tip?.view === messages;
  const log = ((fromTip ? tip?.log : logs.get(messages)) ?? AppendLog.of(messages)).append(...added);
  if (tip && !fromTip) logs.set(tip.view, tip.log);
  const view = log.view();
  tip = { view, log };
  return view;
}

/**
 * Moves a finished fold's transcript out of the slot, so the module does not keep it alive;
 * it stays appendable in O(1) (a next run, a late close).
 *
 * @example
 * parkTranscript(state.value.messages); // at the end of a fold
 */
export function parkTranscript(messages: readonly AgentMessage[]): void {
  if (tip?.view !== messages) return;
  logs.set(tip.view, tip.log);
  tip = undefined;
}
