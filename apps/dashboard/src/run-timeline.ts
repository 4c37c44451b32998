import type { AgentEvent, AgentMessage, AssistantMessage, TokenPrices } from '@rxagent/core';
import { clipText } from './text-limits.js';
import { costOf, DEFAULT_PRICED_AS, DEFAULT_TIMELINE_PRICES } from './timeline-prices.js';
import type { TimelineDetail, TimelineRow, TimelineView } from './timeline-types.js';
import { summarizeArgs } from './value-summary.js';

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
  private readonly pricedAs: string;

  /**
   * @param options `prices` for steps whose provider reports no cost (default `gpt-4o-mini`
   *   list prices), and `pricedAs`, what the page says they are (default `gpt-4o-mini`, or
   *   `the given prices`).
   */
  constructor(options: { prices?: TokenPrices; pricedAs?: string } = {}) {
    this.prices = options.prices ?? DEFAULT_TIMELINE_PRICES;
    this.pricedAs = options.pricedAs ?? (options.prices ? 'the given prices' : DEFAULT_PRICED_AS);
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
    let estimated = false;
    for (const row of rows) {
      input += row.tokens?.input ?? 0;
      output += row.tokens?.output ?? 0;
      total += row.tokens?.total ?? 0;
      costUsd += row.costUsd ?? 0;
      estimated ||= row.costEstimated === true;
    }
    const end = Math.max(0, ...rows.map((r) => r.end ?? 0));
    const view: TimelineView = {
      now: this.ended ? end : now - (this.startedAt ?? now),
      ended: this.ended,
      rows: structuredClone(rows),
      totals: {
        input,
        output,
        total,
        costUsd,
        steps: this.step,
        ...(estimated ? { pricedAs: this.pricedAs } : {}),
      },
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
    if (message.usage.costUsd === undefined) row.costEstimated = true;
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
