import type { AgentMessage, AssistantMessage, Phase } from '@rxagent/core';

/**
 * A coloured stretch of a timeline row: what the step was doing from `start` to `end` (ms
 * since the run started; no `end` while it lasts). `subrun` is a sub-run's whole life.
 *
 * @example
 * const s: TimelineSegment = { phase: 'waiting-first-token', start: 0, end: 420 };
 */
export interface TimelineSegment {
  phase: 'waiting-first-token' | 'streaming' | 'retry' | 'approval' | 'executing' | 'subrun';
  start: number;
  end?: number;
}

/**
 * Token counts (and the cost, when every part is priced) of a row or of a run.
 *
 * @example
 * const t: TimelineTokens = { input: 1200, output: 80, total: 1280, costUsd: 0.000228 };
 */
export interface TimelineTokens {
  input: number;
  output: number;
  total: number;
  /** US dollars, as the run priced it (`usage.costUsd`); absent when a part has no price. */
  costUsd?: number;
}

/**
 * One row of the waterfall: a model call, a tool call, a context summary call, or a sub-run
 * (nested under the tool call that runs it, its own rows nested under it).
 *
 * @example
 * const row: TimelineRow = { id: 'model-1', kind: 'model', step: 1, depth: 0, label: 'model call 1', start: 0, segments: [], status: 'running', marks: [] };
 */
export interface TimelineRow {
  /**
   * `model-<step>`, `tool-<toolCallId>`, `summary-<n>`; a sub-run is `s<n>` and its rows
   * `s<n>.model-<step>`, `s<n>.tool-<toolCallId>`…
   */
  id: string;
  kind: 'model' | 'tool' | 'summary' | 'subrun';
  /** The step of the run (or sub-run) the row belongs to. */
  step: number;
  /** 0 for the run's own rows; a sub-run and its rows are one deeper than the call that runs it. */
  depth: number;
  /** The row this one is nested under (a sub-run under its tool call, a sub-run's rows under it). */
  parent?: string;
  /** `model call <step>`, the tool's name, `summary`, or the sub-run's agents (`scout › helper`). */
  label: string;
  /** Short arguments of a tool call, the summary model, or a sub-run's task. */
  detail?: string;
  start: number;
  end?: number;
  segments: TimelineSegment[];
  status: 'running' | 'ok' | 'error' | 'rejected' | 'cancelled';
  /** Time to first token of a model or summary call (ms). */
  firstTokenMs?: number;
  /** What this row's own call spent (the same rule as the run's usage: `spentUsage`). */
  tokens?: TimelineTokens;
  /** A tool call's sub-runs, or a sub-run with what it ran: everything spent under this row. */
  subtotal?: TimelineTokens;
  /** A sub-run's step and phase, from the state fold (`state.subruns`). */
  subrun?: { step: number; phase: Phase };
  /** Points in time worth a mark: retries, approval decisions, context compactions. */
  marks: { at: number; kind: 'retry' | 'approved' | 'rejected' | 'compaction'; text: string }[];
}

/**
 * A run's timeline as the page draws it: the rows (each nested row right after the row it
 * belongs to), the totals, and `now` (ms since the start) so a row that is still running is
 * drawn up to it. The totals are the run's state (`reduceAgentState`): the card's figures.
 *
 * @example
 * const view: TimelineView = timeline.view(scheduler.now());
 * console.log(view.rows.length, view.totals.total, view.totals.costUsd);
 */
export interface TimelineView {
  startedAt?: number;
  now: number;
  ended: boolean;
  stopReason?: string;
  rows: TimelineRow[];
  totals: TimelineTokens & { steps: number };
  /**
   * Only for a run that priced none of its calls (a scripted model): its tokens at a stand-in
   * model's list prices. An estimate, never the run's cost (`totals.costUsd` stays unknown).
   */
  estimate?: TimelineEstimate;
}

/**
 * What a run that priced no call would cost at a stand-in model's prices: the page shows
 * `cost unknown (≈ $0.000642 priced as gpt-4o-mini)`.
 *
 * @example
 * const e: TimelineEstimate = { costUsd: 0.000642, pricedAs: 'gpt-4o-mini' };
 */
export interface TimelineEstimate {
  costUsd: number;
  /** The model whose list prices it uses. */
  pricedAs: string;
}

/**
 * Everything about one row, in full: a model call's new input messages and its answer, a
 * tool call's arguments and result, a summary call's text, a sub-run's task and answer.
 *
 * @example
 * const detail = timeline.detail('tool-call_1'); // { row, args: '{\n  "path": …', result: '…' }
 */
export interface TimelineDetail {
  row: TimelineRow;
  /** Messages that entered the transcript since the previous model call (model rows). */
  input?: AgentMessage[];
  /** The assistant message (model rows). */
  output?: AssistantMessage;
  /** Pretty JSON of the arguments (tool rows), in full. */
  args?: string;
  /** The result text (tool rows), in full. */
  result?: string;
  isError?: boolean;
  approval?: { approved: boolean; reason?: string };
  /** The summary written so far (summary rows). */
  summary?: string;
  /** What the compaction did (summary rows). */
  compaction?: { strategy: string; tokensBefore: number; tokensAfter: number; summarized: number };
  /** The sub-run's agents, task, last answer and stop reason (sub-run rows). */
  subrun?: { path: string[]; task?: string; answer?: string; stopReason?: string };
}
