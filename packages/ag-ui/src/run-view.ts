import type { AgentState } from '@rxagent/core';

/**
 * The AG-UI state of an rxagent run (what `STATE_SNAPSHOT` and `STATE_DELTA` carry by default): a
 * small view of the run's folded state (`reduceAgentState`) — the messages travel as message
 * events, not in the state.
 *
 * @example
 * const view: RunView = { runId: 'run-1', phase: 'tool-executing', step: 1, usage, pendingApprovals: [], toolOutcomes: {} };
 */
export interface RunView {
  runId?: string;
  phase: AgentState['phase'];
  step: number;
  usage: AgentState['usage'];
  /** Tool calls waiting for a person, by call id and tool name. */
  pendingApprovals: { toolCallId: string; toolName: string }[];
  /** How each tool call of the run ended (`executed`, `denied`, `rejected`…), by call id. */
  toolOutcomes: AgentState['toolOutcomes'];
  stopReason?: AgentState['stopReason'];
}

/**
 * The default AG-UI state of a run: see `RunView`.
 *
 * @example
 * runView(reduceAgentState(initialAgentState(), event)).phase;
 */
export function runView(state: AgentState): RunView {
  const view: RunView = {
    phase: state.phase,
    step: state.step,
    usage: state.usage,
    pendingApprovals: state.pendingApprovals.map((a) => ({ toolCallId: a.toolCallId, toolName: a.toolName })),
    toolOutcomes: state.toolOutcomes,
  };
  if (state.runId !== undefined) view.runId = state.runId;
  if (state.stopReason !== undefined) view.stopReason = state.stopReason;
  return view;
}
