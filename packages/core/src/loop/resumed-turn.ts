import type { Observer } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { StopGuard } from '../stop/stop-condition.js';
import type { MessageQueue } from '../turn/message-queue.js';
import type { RunFacts, SteeringQueue } from '../turn/run-facts.js';
import type { RunSnapshot } from '../turn/run-snapshot.js';
import { Turn } from '../turn/turn.js';
import { decideTurn } from './decide-turn.js';
import { agentEnd, type NextTurn } from './turn-loop.js';

/**
 * The turn a snapshot was taken of, in a new run, listening to the config's sources as well as
 * the messages the snapshot had queued.
 *
 * @example
 * const first = resumedTurn(scope, snapshot, { steering, followUps, guards });
 */
export function resumedTurn(
  run: RunFacts,
  snapshot: RunSnapshot,
  listening: {
    steering: readonly SteeringQueue[];
    followUps: readonly MessageQueue[];
    guards: readonly StopGuard[];
  },
): Turn {
  let turn = Turn.fromSnapshot(run, snapshot);
  for (const s of listening.steering) turn = turn.withSteering(s.queue, s.mode);
  for (const q of listening.followUps) turn = turn.withFollowUps(q);
  for (const g of listening.guards) turn = turn.withGuard(g);
  return turn;
}

/**
 * The decision after a resumed turn whose step was done: its events go to `out`; the next turn
 * when the run goes on, else its `agent-end` (and `out` completes). A failing decision (an
 * escalating stop guard) errors `out`.
 *
 * @example
 * const start = first.assistant ? decide(first, maxSteps, body) : { turn: first, input: [] };
 */
export function decide(turn: Turn, maxSteps: number, out: Observer<AgentEvent>): NextTurn | undefined {
  let decision;
  try {
    decision = decideTurn(turn, maxSteps);
  } catch (error) {
    out.error(error);
    return undefined;
  }
  for (const event of decision.events) out.next(event);
  if ('next' in decision) return { turn: decision.next, input: decision.input };
  out.next(agentEnd(decision.last, decision.end));
  out.complete();
  return undefined;
}
