import type { StepResult } from '../events/agent-event.js';
import type { AgentMessage } from '../messages/types.js';
import type { AppendLog } from '../util/append-log.js';

// A message's plain-JSON copy, made once: a run snapshotted after every turn (`onSnapshot`, a
// recording) would otherwise copy its whole transcript per turn, quadratic over the run. The
// copies are frozen, so snapshots can share them and still nobody can change one later. A memo
// keyed by the message, an immutable value.
const COPIES = new WeakMap<AgentMessage, AgentMessage>();

/**
 * @internal The transcript as plain JSON, each message copied once for all the snapshots
 * that hold it.
 *
 * @example
 * const messages = plainMessages(turn.log.sliceFrom(0));
 */
export function plainMessages(messages: readonly AgentMessage[]): AgentMessage[] {
  return messages.map(plainMessage);
}

function plainMessage(message: AgentMessage): AgentMessage {
  let copy = COPIES.get(message);
  if (!copy) {
    copy = deepFreeze(JSON.parse(JSON.stringify(message)) as AgentMessage);
    COPIES.set(message, copy);
  }
  return copy;
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}

/** Where each message of a transcript store sits, filled in as far as it was asked for. */
interface Positions {
  readonly at: Map<AgentMessage, number>;
  indexed: number;
}

// Keyed by a transcript's append-only store, which a run's turns share: a message's position in
// it never changes, so each is indexed once over the run.
const POSITIONS = new WeakMap<readonly AgentMessage[], Positions>();

/**
 * @internal The index of each step's model message in the transcript `log` (-1 when it is not
 * there), indexing each message of the run once.
 *
 * @example
 * const stepIndexes = stepPositions(turn.log, turn.steps);
 */
export function stepPositions(log: AppendLog<AgentMessage>, steps: readonly StepResult[]): number[] {
  const store = log.store;
  let positions = POSITIONS.get(store);
  if (!positions) POSITIONS.set(store, (positions = { at: new Map(), indexed: 0 }));
  for (let i = positions.indexed; i < log.length; i++) positions.at.set(store[i] as AgentMessage, i);
  positions.indexed = Math.max(positions.indexed, log.length);
  const length = log.length;
  return steps.map((s) => {
    const at = positions.at.get(s.message);
    return at !== undefined && at < length ? at : -1;
  });
}
