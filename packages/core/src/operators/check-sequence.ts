import type { AgentEvent } from '../events/agent-event.js';
import type { Turn } from '../turn/turn.js';
import { repairMessageSequence, validateMessageSequence } from '../messages/message-sequence.js';
import type { Message } from '../messages/types.js';

/** How far a transcript store was checked, and the calls still waiting for a result there. */
interface Cursor {
  readonly checked: number;
  readonly open?: readonly string[];
}

// How far each transcript store is known valid: a memo keyed by the append-only store a run's
// turns share (what its first `checked` items are never changes), so each message of a run is
// checked once and a long run stays linear, without a copy of the turn per model call.
const CHECKED = new WeakMap<readonly Message[], Cursor>();

/**
 * The messages a call is about to send, repaired if a provider would refuse them, with the
 * `warning` that says what was repaired. The turn's own transcript is checked incrementally; a
 * rewritten context (compaction) is checked whole.
 *
 * @example
 * const { messages, warning } = checkSequence(turn);
 */
export function checkSequence(turn: Turn): { messages: readonly Message[]; warning?: AgentEvent } {
  if (turn.context) return repairIfNeeded(turn.context, turn);
  const log = turn.modelLog;
  if (log.length === 0) return { messages: turn.modelMessages };
  const store = log.store;
  let cursor = CHECKED.get(store);
  if (!cursor || cursor.checked > log.length) cursor = { checked: 0 };
  if (cursor.checked === log.length) return { messages: turn.modelMessages };
  // A few ids at most: an array costs less than a Set on the per-step path.
  let open: string[] | undefined = cursor.open?.length ? [...cursor.open] : undefined;
  let valid = true;
  for (let i = cursor.checked; i < log.length; i++) {
    const m = log.at(i) as Message;
    if (m.role === 'tool') {
      const at = open ? open.indexOf(m.toolCallId) : -1;
      if (at < 0) valid = false;
      else open?.splice(at, 1);
      continue;
    }
    if (open?.length) valid = false;
    open = undefined;
    if (m.role !== 'assistant') continue;
    for (const p of m.content) if (p.type === 'tool-call') (open ??= []).push(p.id);
  }
  if (open?.length) valid = false;
  if (valid) {
    const known = CHECKED.get(store);
    if (!known || known.checked < log.length) CHECKED.set(store, { checked: log.length, open });
    return { messages: turn.modelMessages };
  }
  // Rare: something appended an invalid sequence. Repair this call's copy (the memo stays at
  // the last valid point, so the next call checks from there again).
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
