import type { AgentEvent } from '../events/agent-event.js';
import type { Turn } from '../turn/turn.js';
import { repairMessageSequence, validateMessageSequence } from '../messages/message-sequence.js';
import type { Message } from '../messages/types.js';

/** How far the run's transcript was checked, and the calls still waiting for a result there. */
interface Cursor {
  readonly checked: number;
  readonly open?: readonly string[];
}

// Where the run keeps its cursor: each message of a run is checked once (a long run stays linear).
const CURSOR = 'llmStep.checked';

/**
 * The messages a call is about to send, repaired if a provider would refuse them, with the
 * `warning` that says what was repaired, and the turn carrying how far the transcript is now
 * checked. The turn's own transcript is checked incrementally; a rewritten context
 * (compaction) is checked whole.
 *
 * @example
 * const { messages, warning, turn: checked } = checkSequence(turn);
 */
export function checkSequence(turn: Turn): {
  messages: readonly Message[];
  warning?: AgentEvent;
  turn: Turn;
} {
  if (turn.context) return { ...repairIfNeeded(turn.context, turn), turn };
  const log = turn.modelLog;
  let cursor = turn.operatorState<Cursor>(CURSOR);
  if (!cursor || cursor.checked > log.length) cursor = { checked: 0 };
  if (cursor.checked === log.length) return { messages: turn.modelMessages, turn };
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
    const next: Cursor = { checked: log.length };
    return { messages: turn.modelMessages, turn: turn.withOperatorState(CURSOR, next) };
  }
  // Rare: something appended an invalid sequence. Repair this call's copy and check it all next time.
  return {
    ...repairIfNeeded(turn.modelMessages, turn),
    turn: turn.withOperatorState(CURSOR, { checked: 0 }),
  };
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
