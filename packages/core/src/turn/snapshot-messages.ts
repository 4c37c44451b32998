import type { StepResult } from '../events/agent-event.js';
import type { AgentMessage } from '../messages/types.js';
import type { AppendLog } from '../util/append-log.js';

// A message's plain-JSON copy, made once: a run snapshotted after every turn (`onSnapshot`, a
// recording) would otherwise copy its whole transcript per turn, quadratic over the run. The
// copies are frozen, so snapshots can share them and still nobody can change one later. A memo
// keyed by the message, an immutable value.
const COPIES = new WeakMap<AgentMessage, AgentMessage>();

// Per transcript store, the copies of its messages in order (a snapshot takes a prefix: one
// array copy, not a lookup per message).
const TRANSCRIPTS = new WeakMap<readonly AgentMessage[], AgentMessage[]>();

/**
 * @internal The transcript `log` as plain JSON, each message copied once for all the snapshots
 * that hold it.
 *
 * @example
 * const messages = plainMessages(turn.log);
 */
export function plainMessages(log: AppendLog<AgentMessage>): AgentMessage[] {
  const store = log.store;
  let copies = TRANSCRIPTS.get(store);
  if (!copies) TRANSCRIPTS.set(store, (copies = []));
  for (let i = copies.length; i < log.length; i++) copies.push(plainMessage(store[i] as AgentMessage));
  return copies.slice(0, log.length);
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

const STEP_POSITIONS = new WeakMap<readonly StepResult[], number[]>();

/**
 * @internal The index of each step's model message in the transcript `log` (-1 when it is not
 * there), indexing each message of the run once.
 *
 * @example
 * const stepIndexes = stepPositions(turn.log, turn.stepLog);
 */
export function stepPositions(log: AppendLog<AgentMessage>, steps: AppendLog<StepResult>): number[] {
  const store = log.store;
  let positions = POSITIONS.get(store);
  if (!positions) POSITIONS.set(store, (positions = { at: new Map(), indexed: 0 }));
  for (let i = positions.indexed; i < log.length; i++) positions.at.set(store[i] as AgentMessage, i);
  positions.indexed = Math.max(positions.indexed, log.length);
  // A step's position is the same in every store its transcript forked into (a fork copies the
  // prefix): the steps' store keeps them, found once each.
  let found = STEP_POSITIONS.get(steps.store);
  if (!found) STEP_POSITIONS.set(steps.store, (found = []));
  for (let i = found.length; i < steps.length; i++) {
    found.push(positions.at.get((steps.store[i] as StepResult).message) ?? -1);
  }
  const length = log.length;
  return found.slice(0, steps.length).map((at) => (at < length ? at : -1));
}
