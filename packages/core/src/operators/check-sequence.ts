import type { AgentEvent } from '../events/agent-event.js';
import type { Turn } from '../turn/turn.js';
import { repairMessageSequence, validateMessageSequence } from '../messages/message-sequence.js';
import type { Message } from '../messages/types.js';

interface Cursor {
  checked: number;
  /** Tool calls of the last assistant message without a result yet (made when there are some). */
  open?: Set<string>;
}

// Keyed by a transcript's backing store: appends in a line share it, so each message of a
// run is checked once (a long run stays linear); a fork gets a store of its own.
const cursors = new WeakMap<readonly Message[], Cursor>();

/**
 * The messages a call is about to send, repaired if a provider would refuse them, with the
 * `warning` that says what was repaired. The turn's own transcript is checked incrementally;
 * a rewritten context (compaction) is checked whole.
 *
 * @example
 * const { messages, warning } = checkSequence(turn);
 */
export function checkSequence(turn: Turn): { messages: readonly Message[]; warning?: AgentEvent } {
  if (turn.context) return repairIfNeeded(turn.context, turn);
  const log = turn.modelTranscript;
  const store = log.store;
  let cursor = cursors.get(store);
  if (!cursor || cursor.checked > log.length) {
    cursor = { checked: 0 };
    cursors.set(store, cursor);
  }
  let valid = true;
  for (let i = cursor.checked; i < log.length; i++) {
    const m = store[i] as Message;
    if (m.role === 'tool') {
      if (!cursor.open?.delete(m.toolCallId)) valid = false;
      continue;
    }
    if (cursor.open?.size) valid = false;
    cursor.open?.clear();
    if (m.role !== 'assistant') continue;
    for (const p of m.content) if (p.type === 'tool-call') (cursor.open ??= new Set()).add(p.id);
  }
  cursor.checked = log.length;
  if (cursor.open?.size) valid = false;
  if (valid) return { messages: turn.modelMessages };
  // Rare: something appended an invalid sequence. Repair this call's copy and start over.
  cursors.delete(store);
  return repairIfNeeded(turn.modelMessages, turn);
}

function repairIfNeeded(
  messages: readonly Message[],
  turn: Turn,
): { messages: readonly Message[]; warning?: AgentEvent } {
  if (validateMessageSequence(messages).length === 0) return { messages };
  const { messages: repaired, repairs } = repairMessageSequence(messages, turn.run.scheduler.now());
  return {
    messages: repaired as Message[],
    warning: {
      type: 'warning',
      message:
        `Repaired the transcript before step ${turn.step}: ` +
        repairs.map((r) => `${r.kind}${r.toolCallId ? ` (${r.toolCallId})` : ''}`).join(', ') +
        '.',
    },
  };
}
