import type { ElicitationEndEvent, ElicitationRequestEvent } from '../events/elicitation-events.js';
import type { AgentState } from './agent-state.js';

/**
 * An elicitation waiting for a person (between `elicitation-request` and `elicitation-end`):
 * the request as it came, for a form to show.
 *
 * @example
 * state$.subscribe((s) => s.pendingElicitations.forEach((p: PendingElicitation) => showForm(p)));
 */
export type PendingElicitation = Omit<ElicitationRequestEvent, 'type'>;

/**
 * Folds an elicitation event into `next` (a fresh copy of `state`): a request is added to
 * `pendingElicitations`, an end removes it.
 *
 * @example
 * next = reduceElicitation(state, copy(state), event);
 */
export function reduceElicitation(
  state: AgentState,
  next: AgentState,
  event: ElicitationRequestEvent | ElicitationEndEvent,
): AgentState {
  if (event.type === 'elicitation-request') {
    const { type: _type, ...pending } = event;
    next.pendingElicitations = [...state.pendingElicitations, pending];
    return next;
  }
  next.pendingElicitations = state.pendingElicitations.filter((e) => e.elicitationId !== event.elicitationId);
  return next;
}
