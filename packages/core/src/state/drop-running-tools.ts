import type { AgentState } from './agent-state.js';
import { endSubruns } from './reduce-subrun.js';

/**
 * `next` (a copy of `state`) without the tool calls still running: their pending and active
 * entries, their questions and their sub-runs (cancelled). For calls that will never get a
 * `tool-end`: eager calls of a model call that failed and is retried, or that was aborted, and
 * anything left open when a turn ends.
 *
 * @example
 * case 'retry': next = dropRunningTools(state, copy(state));
 */
export function dropRunningTools(state: AgentState, next: AgentState): AgentState {
  const ids = state.pendingToolCalls;
  if (ids.length === 0 && state.activeTools.length === 0) return next;
  next.pendingToolCalls = [];
  next.activeTools = [];
  if (state.pendingElicitations.length > 0)
    next.pendingElicitations = state.pendingElicitations.filter((e) => !ids.includes(e.toolCallId));
  let subruns = state.subruns;
  for (const id of ids) subruns = endSubruns(subruns, id, 'cancelled');
  next.subruns = subruns;
  return next;
}
