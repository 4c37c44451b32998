import type { AgentMessage, AssistantMessage } from '@rxagent/core';

/**
 * A coloured stretch of a timeline row: what the step was doing from `start` to `end` (ms
 * since the run started; no `end` while it lasts).
 *
 * @example
 * const s: TimelineSegment = { phase: 'waiting-first-token', start: 0, end: 420 };
 */
export interface TimelineSegment {
  phase: 'waiting-first-token' | 'streaming' | 'retry' | 'approval' | 'executing';
  start: number;
  end?: number;
}

/**
 * One row of the waterfall: a model call or a tool call.
 *
 * @example
 * const row: TimelineRow = { id: 'model-1', kind: 'model', step: 1, label: 'model call 1', start: 0, segments: [], status: 'running', marks: [] };
 */
export interface TimelineRow {
  /** `model-<step>` or `tool-<toolCallId>`. */
  id: string;
  kind: 'model' | 'tool';
  step: number;
  /** `model call <step>` or the tool's name. */
  label: string;
  /** Short arguments of a tool call. */
  detail?: string;
  start: number;
  end?: number;
  segments: TimelineSegment[];
  status: 'running' | 'ok' | 'error' | 'rejected' | 'cancelled';
  /** Time to first token of a model call (ms). */
  firstTokenMs?: number;
  tokens?: { input: number; output: number; total: number };
  costUsd?: number;
  /** The cost was not reported by the provider but computed from the timeline's prices. */
  costEstimated?: boolean;
  /** Points in time worth a mark: retries, approval decisions. */
  marks: { at: number; kind: 'retry' | 'approved' | 'rejected'; text: string }[];
}

/**
 * A run's timeline as the page draws it: the rows, the totals, and `now` (ms since the start)
 * so a row that is still running is drawn up to it.
 *
 * @example
 * const view: TimelineView = timeline.view(scheduler.now());
 * console.log(view.rows.length, view.totals.costUsd);
 */
export interface TimelineView {
  startedAt?: number;
  now: number;
  ended: boolean;
  stopReason?: string;
  rows: TimelineRow[];
  totals: {
    input: number;
    output: number;
    total: number;
    costUsd: number;
    steps: number;
    /** Whose prices the cost of steps the provider did not price was computed with (`gpt-4o-mini`). */
    pricedAs?: string;
  };
}

/**
 * Everything about one row, in full: a model call's new input messages and its answer, a
 * tool call's arguments and result.
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
}
