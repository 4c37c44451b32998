import { distinctUntilChanged, map, type OperatorFunction } from 'rxjs';
import type { Usage } from '../messages/types.js';
import type { AgentState, Phase } from './agent-state.js';

/**
 * Projects the state and emits only when the projection changes (by `===`).
 *
 * @example
 * state$.pipe(selectState((s) => s.step)).subscribe((step) => console.log('step', step));
 */
export function selectState<T>(project: (state: AgentState) => T): OperatorFunction<AgentState, T> {
  return (state$) => state$.pipe(map(project), distinctUntilChanged());
}

/**
 * The phase, on change only.
 *
 * @example
 * state$.pipe(selectPhase()).subscribe((phase) => statusBar.set(phase));
 */
export function selectPhase(): OperatorFunction<AgentState, Phase> {
  return selectState((s) => s.phase);
}

/**
 * The total usage, on change only.
 *
 * @example
 * state$.pipe(selectUsage()).subscribe((u) => console.log(u.totalTokens));
 */
export function selectUsage(): OperatorFunction<AgentState, Usage> {
  return selectState((s) => s.usage);
}

/**
 * The ids of the running tool calls, on change only: a list with the same ids in the same order
 * is not emitted again, even when the fold made a new array for it.
 *
 * @example
 * state$.pipe(selectPendingTools()).subscribe((ids) => spinner.toggle(ids.length > 0));
 */
export function selectPendingTools(): OperatorFunction<AgentState, readonly string[]> {
  return (state$) =>
    state$.pipe(
      map((s) => s.pendingToolCalls),
      distinctUntilChanged((a, b) => a.length === b.length && a.every((id, i) => id === b[i])),
    );
}
