import type { RunContext, TurnContext } from '../loop/loop-event.js';
import { repairMessageSequence, validateMessageSequence } from '../messages/message-sequence.js';
import type { Message } from '../messages/types.js';
import type { TurnIO } from './turn-operator.js';

interface Cursor {
  checked: number;
  /** Tool calls of the last assistant message without a result yet (made when there are some). */
  open?: Set<string>;
}

const cursors = new WeakMap<RunContext, Cursor>();

/**
 * Checks the messages a call is about to send and repairs them if a provider would refuse
 * them (a `warning` says what was repaired). The run's own transcript is checked
 * incrementally (only what was appended since the last call), so a long run stays linear;
 * a rewritten context (compaction) is checked whole.
 *
 * @example
 * const messages = checkSequence(turn, io) ?? turn.run.modelMessages;
 */
export function checkSequence(turn: TurnContext, io: TurnIO): readonly Message[] | undefined {
  if (turn.context) return repairIfNeeded(turn.context, turn, io);
  const messages = turn.run.modelMessages;
  let cursor = cursors.get(turn.run);
  if (!cursor) {
    cursor = { checked: 0 };
    cursors.set(turn.run, cursor);
  }
  let valid = true;
  for (let i = cursor.checked; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role === 'tool') {
      if (!cursor.open?.delete(m.toolCallId)) valid = false;
      continue;
    }
    if (cursor.open?.size) valid = false;
    cursor.open?.clear();
    if (m.role !== 'assistant') continue;
    for (const p of m.content) if (p.type === 'tool-call') (cursor.open ??= new Set()).add(p.id);
  }
  cursor.checked = messages.length;
  if (cursor.open?.size) valid = false;
  if (valid) return undefined;
  // Rare: something appended an invalid sequence. Repair this call's copy and start over.
  cursors.delete(turn.run);
  return repairIfNeeded(messages, turn, io);
}

function repairIfNeeded(messages: readonly Message[], turn: TurnContext, io: TurnIO): readonly Message[] {
  if (validateMessageSequence(messages).length === 0) return messages;
  const { messages: repaired, repairs } = repairMessageSequence(messages, turn.run.scheduler.now());
  io.emit({
    type: 'warning',
    message:
      `Repaired the transcript before step ${turn.step}: ` +
      repairs.map((r) => `${r.kind}${r.toolCallId ? ` (${r.toolCallId})` : ''}`).join(', ') +
      '.',
  });
  return repaired as Message[];
}
