import type { AgentEvent } from '../events/agent-event.js';
import { initialAgentState, type AgentState } from '../state/agent-state.js';
import { reduceAgentState } from '../state/reduce-agent-state.js';

/**
 * The state a sequence of events folds to (e.g. a recorded run's, to resume after a crash).
 *
 * @example
 * const state = foldEvents(log.map((r) => r.event));
 * agent.importMessages(state.messages);
 */
export function foldEvents(
  events: readonly AgentEvent[],
  initial: AgentState = initialAgentState(),
): AgentState {
  return events.reduce(reduceAgentState, initial);
}
