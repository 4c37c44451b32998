import { addUsage, emptyUsage, type AgentMessage, type AssistantMessage, type Usage } from '@rxagent/core';
import type { TimelineDetail, TimelineRow, TimelineTokens } from './timeline-types.js';

/**
 * One row while the timeline is built: the row the page draws, the rows nested under it, what
 * its own call spent (`spentUsage` of the event that reports it) and what its detail shows.
 *
 * @example
 * const state: RowState = { row, children: [] };
 */
export interface RowState {
  row: TimelineRow;
  children: RowState[];
  /** What this row's own call spent. */
  spent?: Usage;
  /** A sub-run row: the sub-run's id (its state is `state.subruns[runId]`). */
  runId?: string;
  input?: AgentMessage[];
  output?: AssistantMessage;
  args?: unknown;
  result?: string;
  isError?: boolean;
  approval?: { approved: boolean; reason?: string };
  summary?: string;
  compaction?: TimelineDetail['compaction'];
  subrun?: TimelineDetail['subrun'];
}

/**
 * A new row starting at `t`, with its first segment.
 *
 * @example
 * const state = newRow({ id: 'model-1', kind: 'model', step: 1, depth: 0, label: 'model call 1' }, 0, 'waiting-first-token');
 */
export function newRow(
  fields: Pick<TimelineRow, 'id' | 'kind' | 'step' | 'depth' | 'label'> & Partial<TimelineRow>,
  t: number,
  phase: TimelineRow['segments'][number]['phase'],
): RowState {
  return {
    row: { start: t, segments: [{ phase, start: t }], status: 'running', marks: [], ...fields },
    children: [],
  };
}

/**
 * Ends the row's open segments at `t`.
 *
 * @example
 * closeOpen(row, 420);
 */
export function closeOpen(row: TimelineRow, t: number): void {
  for (const segment of row.segments) if (segment.end === undefined) segment.end = Math.max(segment.start, t);
}

/**
 * Ends the row at `t` (and everything still open under it) with `status`, unless it ended.
 *
 * @example
 * endOpenRows(state, 900, 'cancelled');
 */
export function endOpenRows(state: RowState, t: number, status: TimelineRow['status']): void {
  if (state.row.end === undefined) {
    closeOpen(state.row, t);
    state.row.end = t;
    state.row.status = status;
  }
  for (const child of state.children) endOpenRows(child, t, status);
}

/**
 * Ends the row of a tool call that was dropped at `t` (an eager call of a model call that is
 * retried) as cancelled, with a mark saying why, under a new id: the retried call may use its
 * call id again.
 *
 * @example
 * dropRow(byId, state, 420, 1); // tool-a → tool-a-dropped-1
 */
export function dropRow(byId: Map<string, RowState>, state: RowState, t: number, n: number): void {
  state.row.marks.push({
    at: t,
    kind: 'retry',
    text: 'dropped: the model call that asked for it is retried',
  });
  endOpenRows(state, t, 'cancelled');
  byId.delete(state.row.id);
  state.row.id = `${state.row.id}-dropped-${n}`;
  byId.set(state.row.id, state);
}

/**
 * The figures of a usage record as a row shows them.
 *
 * @example
 * toTokens(message.usage); // { input: 1200, output: 80, total: 1280, costUsd: 0.000228 }
 */
export function toTokens(usage: Usage): TimelineTokens {
  const tokens: TimelineTokens = {
    input: usage.inputTokens,
    output: usage.outputTokens,
    total: usage.totalTokens,
  };
  if (usage.costUsd !== undefined) tokens.costUsd = usage.costUsd;
  return tokens;
}

/**
 * The rows in drawing order (each row, then the rows nested under it), copied, with each
 * row's own spending and, for a row with nested rows, the total spent under it — summed with
 * `addUsage`, as the run's usage is.
 *
 * @example
 * const rows = flattenRows(states, (state, row) => row);
 */
export function flattenRows(
  states: readonly RowState[],
  decorate: (state: RowState, row: TimelineRow) => TimelineRow,
): TimelineRow[] {
  const out: TimelineRow[] = [];
  const visit = (state: RowState): Usage | undefined => {
    const row = decorate(state, structuredClone(state.row));
    if (state.spent) row.tokens = toTokens(state.spent);
    out.push(row);
    let under: Usage | undefined;
    for (const child of state.children) {
      const spent = visit(child);
      if (spent) under = under ? addUsage(under, spent) : spent;
    }
    if (state.children.length > 0) row.subtotal = toTokens(under ?? emptyUsage());
    if (!under) return state.spent;
    return state.spent ? addUsage(state.spent, under) : under;
  };
  for (const state of states) visit(state);
  return out;
}
