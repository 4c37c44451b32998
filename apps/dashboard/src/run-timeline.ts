import type { AgentEvent, AgentMessage, AssistantMessage, TokenPrices, Usage } from '@rxagent/core';
import { clipText } from './text-limits.js';
import { summarizeArgs } from './value-summary.js';

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
  totals: { input: number; output: number; total: number; costUsd: number; steps: number };
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

/**
 * Prices used for the cost of a step when the provider reports none (`gpt-4o-mini` list
 * prices, US dollars per million tokens).
 *
 * @example
 * new RunTimeline({ prices: DEFAULT_TIMELINE_PRICES });
 */
export const DEFAULT_TIMELINE_PRICES: TokenPrices = {
  inputPerMillion: 0.15,
  outputPerMillion: 0.6,
  cacheReadPerMillion: 0.075,
};

interface RowState {
  row: TimelineRow;
  input?: AgentMessage[];
  output?: AssistantMessage;
  args?: unknown;
  result?: string;
  isError?: boolean;
  approval?: { approved: boolean; reason?: string };
}

/**
 * A run's timeline, folded from its events: a row per model call (waiting for the first
 * token, then streaming; retries marked) and per tool call (waiting for approval, then
 * executing), with tokens and cost per step and in total. Times are ms since `agent-start`,
 * from the clock given to `see`. A new `agent-start` starts a new timeline.
 *
 * @example
 * const timeline = new RunTimeline();
 * agent.events$.subscribe((event) => timeline.see(event, scheduler.now()));
 * const view = timeline.view(scheduler.now());
 */
export class RunTimeline {
  private startedAt?: number;
  private rows: RowState[] = [];
  private readonly byId = new Map<string, RowState>();
  private model?: RowState;
  private pending: AgentMessage[] = [];
  private step = 0;
  private ended = false;
  private stopReason?: string;
  private readonly prices: TokenPrices;

  constructor(options: { prices?: TokenPrices } = {}) {
    this.prices = options.prices ?? DEFAULT_TIMELINE_PRICES;
  }

  see(event: AgentEvent, now: number): void {
    if (event.type === 'agent-start') return this.reset(now);
    if (this.startedAt === undefined) this.reset(now);
    const t = now - (this.startedAt ?? now);
    switch (event.type) {
      case 'turn-start':
        this.step = event.step;
        this.modelRow(t);
        return;
      case 'message-update': {
        const model = this.model?.row;
        if (!model || model.firstTokenMs !== undefined) return;
        model.firstTokenMs = t - model.start;
        closeOpen(model, t);
        model.segments.push({ phase: 'streaming', start: t });
        return;
      }
      case 'retry': {
        const model = this.modelRow(t).row;
        closeOpen(model, t);
        model.marks.push({
          at: t,
          kind: 'retry',
          text: `retry #${event.attempt}: ${clipText(event.error.message, 200)}`,
        });
        model.firstTokenMs = undefined;
        model.segments.push({ phase: 'retry', start: t, end: t + event.delayMs });
        model.segments.push({ phase: 'waiting-first-token', start: t + event.delayMs });
        return;
      }
      case 'message-end':
        if (event.message.role === 'assistant') return this.endModel(event.message, t);
        this.pending.push(event.message);
        return;
      case 'tool-start': {
        const state: RowState = {
          row: {
            id: `tool-${event.toolCallId}`,
            kind: 'tool',
            step: this.step,
            label: clipText(event.toolName, 200),
            detail: summarizeArgs(event.args, 80),
            start: t,
            segments: [{ phase: 'executing', start: t }],
            status: 'running',
            marks: [],
          },
          args: event.args,
        };
        this.add(state);
        return;
      }
      case 'approval-request': {
        const row = this.byId.get(`tool-${event.toolCallId}`)?.row;
        if (!row) return;
        // Approval comes before execution: the call has waited (validated, previewed) since it started.
        row.segments = [{ phase: 'approval', start: row.start }];
        return;
      }
      case 'approval-end': {
        const state = this.byId.get(`tool-${event.toolCallId}`);
        if (!state) return;
        closeOpen(state.row, t);
        state.approval = { approved: event.approved, ...(event.reason ? { reason: event.reason } : {}) };
        state.row.marks.push({
          at: t,
          kind: event.approved ? 'approved' : 'rejected',
          text: event.approved
            ? 'approved'
            : `rejected${event.reason ? `: ${clipText(event.reason, 200)}` : ''}`,
        });
        if (event.approved) state.row.segments.push({ phase: 'executing', start: t });
        return;
      }
      case 'tool-end': {
        const state = this.byId.get(`tool-${event.toolCallId}`);
        if (!state) return;
        closeOpen(state.row, t);
        state.row.end = t;
        state.row.status =
          state.approval && !state.approval.approved ? 'rejected' : event.isError ? 'error' : 'ok';
        state.result = event.result.content.map((p) => (p.type === 'text' ? p.text : '[image]')).join('');
        state.isError = event.isError;
        return;
      }
      case 'agent-end':
        this.finish(t, 'cancelled');
        this.stopReason = event.reason;
        return;
      default:
        return;
    }
  }

  /** The run stopped without `agent-end` (cancelled, failed): rows still open end now. */
  stop(now: number, reason: string): void {
    if (this.startedAt === undefined || this.ended) return;
    this.finish(now - this.startedAt, 'cancelled');
    this.stopReason = reason;
  }

  view(now: number): TimelineView {
    const rows = this.rows.map((s) => s.row);
    let input = 0;
    let output = 0;
    let total = 0;
    let costUsd = 0;
    for (const row of rows) {
      input += row.tokens?.input ?? 0;
      output += row.tokens?.output ?? 0;
      total += row.tokens?.total ?? 0;
      costUsd += row.costUsd ?? 0;
    }
    const end = Math.max(0, ...rows.map((r) => r.end ?? 0));
    const view: TimelineView = {
      now: this.ended ? end : now - (this.startedAt ?? now),
      ended: this.ended,
      rows: structuredClone(rows),
      totals: { input, output, total, costUsd, steps: this.step },
    };
    if (this.startedAt !== undefined) view.startedAt = this.startedAt;
    if (this.stopReason !== undefined) view.stopReason = this.stopReason;
    return view;
  }

  detail(rowId: string): TimelineDetail | undefined {
    const state = this.byId.get(rowId);
    if (!state) return undefined;
    const detail: TimelineDetail = { row: structuredClone(state.row) };
    if (state.row.kind === 'model') {
      detail.input = state.input ?? [];
      if (state.output) detail.output = state.output;
      return detail;
    }
    detail.args = pretty(state.args);
    if (state.result !== undefined) detail.result = state.result;
    if (state.isError !== undefined) detail.isError = state.isError;
    if (state.approval) detail.approval = state.approval;
    return detail;
  }

  private reset(now: number): void {
    this.startedAt = now;
    this.rows = [];
    this.byId.clear();
    this.model = undefined;
    this.pending = [];
    this.step = 0;
    this.ended = false;
    this.stopReason = undefined;
  }

  private add(state: RowState): void {
    this.rows.push(state);
    this.byId.set(state.row.id, state);
  }

  private modelRow(t: number): RowState {
    if (this.model) return this.model;
    const state: RowState = {
      row: {
        id: `model-${this.step}`,
        kind: 'model',
        step: this.step,
        label: `model call ${this.step}`,
        start: t,
        segments: [{ phase: 'waiting-first-token', start: t }],
        status: 'running',
        marks: [],
      },
    };
    this.model = state;
    this.add(state);
    return state;
  }

  private endModel(message: AssistantMessage, t: number): void {
    const state = this.modelRow(t);
    const { row } = state;
    closeOpen(row, t);
    row.end = t;
    row.status =
      message.stopReason === 'error' ? 'error' : message.stopReason === 'aborted' ? 'cancelled' : 'ok';
    row.tokens = {
      input: message.usage.inputTokens,
      output: message.usage.outputTokens,
      total: message.usage.totalTokens,
    };
    row.costUsd = costOf(message.usage, this.prices);
    state.input = this.pending;
    state.output = message;
    this.pending = [];
    this.model = undefined;
  }

  private finish(t: number, status: TimelineRow['status']): void {
    for (const { row } of this.rows) {
      if (row.end !== undefined) continue;
      closeOpen(row, t);
      row.end = t;
      row.status = status;
    }
    this.model = undefined;
    this.ended = true;
  }
}

function closeOpen(row: TimelineRow, t: number): void {
  for (const segment of row.segments) if (segment.end === undefined) segment.end = Math.max(segment.start, t);
}

function pretty(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return '[unserializable arguments]';
  }
}

/** A step's cost: the provider's `costUsd` when reported, else from `prices`. */
export function costOf(usage: Usage, prices: TokenPrices): number {
  if (usage.costUsd !== undefined) return usage.costUsd;
  const uncached = Math.max(0, usage.inputTokens - usage.cacheReadTokens - usage.cacheWriteTokens);
  return (
    (uncached * prices.inputPerMillion +
      usage.outputTokens * prices.outputPerMillion +
      usage.cacheReadTokens * (prices.cacheReadPerMillion ?? prices.inputPerMillion) +
      usage.cacheWriteTokens * (prices.cacheWritePerMillion ?? prices.inputPerMillion)) /
    1_000_000
  );
}
