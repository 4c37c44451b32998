import {
  assistantText,
  contentText,
  type AgentEvent,
  type AgentMessage,
  type AssistantMessage,
} from '@rxagent/core';
import { spentUsage } from '@rxagent/core/provider';
import { clipText } from './text-limits.js';
import { closeOpen, dropRow, endOpenRows, newRow, type RowState } from './timeline-row.js';
import { summarizeArgs } from './value-summary.js';

/**
 * The rows of one run of a timeline — the run itself, or one of its sub-runs — built from that
 * run's own events: a row per model call (waiting for the first token, then streaming;
 * retries marked), per tool call (waiting for approval, then executing) and per context
 * summary call. Each figure is what the event that reports it spent (`spentUsage`, the rule of
 * the state fold); nothing is totalled here.
 *
 * @example
 * const scope = new TimelineScope(byId, { prefix: '', depth: 0, rows });
 * scope.see({ type: 'turn-start', step: 1 }, 0);
 */
export class TimelineScope {
  /** The run's current step. */
  step = 0;
  private model?: RowState;
  private summary?: RowState;
  /** The model row that waited while a summary call ran: it starts again after the call. */
  private deferred = false;
  private pending: AgentMessage[] = [];
  /** Tool calls started while the model call streamed (eager tools): a retry drops them. */
  private early: string[] = [];
  private dropped = 0;
  private summaries = 0;
  private readonly prefix: string;
  private readonly depth: number;
  private readonly rows: RowState[];
  private readonly header?: RowState;

  /**
   * @param byId Every row of the timeline by id (this scope adds its own).
   * @param where `prefix` of its row ids, `depth` of its rows, `rows` to add them to and, for
   * a sub-run, its `header` row (its rows are nested under it).
   */
  constructor(
    private readonly byId: Map<string, RowState>,
    where: { prefix: string; depth: number; rows: RowState[]; header?: RowState },
  ) {
    this.prefix = where.prefix;
    this.depth = where.depth;
    this.rows = where.rows;
    this.header = where.header;
  }

  /** The tool call row of this run with that call id. */
  toolRow(toolCallId: string): RowState | undefined {
    return this.byId.get(`${this.prefix}tool-${toolCallId}`);
  }

  /** Follows one of this run's own events, `t` ms after the timeline started. */
  see(event: AgentEvent, t: number): void {
    switch (event.type) {
      case 'turn-start':
        this.step = event.step;
        this.early = [];
        this.model = undefined;
        this.deferred = false;
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
      case 'retry':
        this.dropEarly(t);
        return this.retry(this.summary ?? this.modelRow(t), event, t);
      case 'message-end':
        return this.messageEnd(event.message, event, t);
      case 'tool-start':
        // An eager call starts while the model still streams: its row runs beside the model's.
        if (this.model) this.early.push(event.toolCallId);
        return this.toolStart(event.toolCallId, event.toolName, event.args, t);
      case 'approval-request': {
        const row = this.toolRow(event.toolCallId)?.row;
        // Approval comes before execution: the call has waited (validated, previewed) since it started.
        if (row) row.segments = [{ phase: 'approval', start: row.start }];
        return;
      }
      case 'approval-end': {
        const state = this.toolRow(event.toolCallId);
        if (!state) return;
        closeOpen(state.row, t);
        state.approval = { approved: event.approved, ...(event.reason ? { reason: event.reason } : {}) };
        const reason = event.reason ? `: ${clipText(event.reason, 200)}` : '';
        state.row.marks.push({
          at: t,
          kind: event.approved ? 'approved' : 'rejected',
          text: event.approved ? 'approved' : `rejected${reason}`,
        });
        if (event.approved) state.row.segments.push({ phase: 'executing', start: t });
        return;
      }
      case 'tool-end': {
        const state = this.toolRow(event.toolCallId);
        if (!state) return;
        closeOpen(state.row, t);
        state.row.end = t;
        state.row.status =
          state.approval && !state.approval.approved ? 'rejected' : event.isError ? 'error' : 'ok';
        state.result = event.result.content.map((p) => (p.type === 'text' ? p.text : '[image]')).join('');
        state.isError = event.isError;
        // Its sub-runs end with it: one still going failed with the call or was cut off.
        for (const child of state.children) endOpenRows(child, t, event.isError ? 'error' : 'cancelled');
        return;
      }
      case 'summary-start':
        return this.summaryStart(event.model, event.messages, event.incremental, t);
      case 'summary-update': {
        const summary = this.summary;
        if (!summary) return;
        summary.summary = (summary.summary ?? '') + event.delta;
        if (summary.row.firstTokenMs !== undefined) return;
        summary.row.firstTokenMs = t - summary.row.start;
        closeOpen(summary.row, t);
        summary.row.segments.push({ phase: 'streaming', start: t });
        return;
      }
      case 'compaction':
        return this.compaction(event, t);
      default:
        return;
    }
  }

  /** The run ended (or stopped): every row still open ends now with `status`. */
  finish(t: number, status: 'error' | 'cancelled'): void {
    for (const state of this.rows) endOpenRows(state, t, status);
    this.model = undefined;
    this.summary = undefined;
  }

  private add(state: RowState): RowState {
    if (this.header) state.row.parent = this.header.row.id;
    this.rows.push(state);
    this.byId.set(state.row.id, state);
    return state;
  }

  private modelRow(t: number): RowState {
    if (this.model) return this.model;
    this.model = this.add(
      newRow(
        {
          id: `${this.prefix}model-${this.step}`,
          kind: 'model',
          step: this.step,
          depth: this.depth,
          label: `model call ${this.step}`,
        },
        t,
        'waiting-first-token',
      ),
    );
    return this.model;
  }

  private retry(state: RowState, event: Extract<AgentEvent, { type: 'retry' }>, t: number): void {
    const row = state.row;
    closeOpen(row, t);
    row.marks.push({
      at: t,
      kind: 'retry',
      text: `retry #${event.attempt}: ${clipText(event.error.message, 200)}`,
    });
    row.firstTokenMs = undefined;
    row.segments.push({ phase: 'retry', start: t, end: t + event.delayMs });
    row.segments.push({ phase: 'waiting-first-token', start: t + event.delayMs });
  }

  private messageEnd(message: AgentMessage, event: AgentEvent, t: number): void {
    if (message.role === 'assistant') return this.endModel(message, event, t);
    if (message.role === 'tool') {
      const spent = spentUsage(event);
      const tool = this.toolRow(message.toolCallId);
      if (spent && tool) tool.spent = spent;
    }
    if (message.role === 'user' && this.header?.subrun && this.header.subrun.task === undefined) {
      this.header.subrun.task = contentText(message);
      this.header.row.detail = clipText(this.header.subrun.task, 80);
    }
    this.pending.push(message);
  }

  /** The model call failed and is retried: the calls it started early were aborted. */
  private dropEarly(t: number): void {
    for (const id of this.early) {
      const state = this.toolRow(id);
      if (state && state.row.end === undefined) dropRow(this.byId, state, t, ++this.dropped);
    }
    this.early = [];
  }

  private endModel(message: AssistantMessage, event: AgentEvent, t: number): void {
    this.early = [];
    const state = this.modelRow(t);
    const { row } = state;
    closeOpen(row, t);
    row.end = t;
    row.status =
      message.stopReason === 'error' ? 'error' : message.stopReason === 'aborted' ? 'cancelled' : 'ok';
    const spent = spentUsage(event);
    if (spent) state.spent = spent;
    state.input = this.pending;
    state.output = message;
    this.pending = [];
    this.model = undefined;
    if (this.header?.subrun) {
      const text = assistantText(message).trim();
      if (text) this.header.subrun.answer = text;
    }
  }

  private toolStart(toolCallId: string, toolName: string, args: unknown, t: number): void {
    const state = newRow(
      {
        id: `${this.prefix}tool-${toolCallId}`,
        kind: 'tool',
        step: this.step,
        depth: this.depth,
        label: clipText(toolName, 200),
        detail: summarizeArgs(args, 80),
      },
      t,
      'executing',
    );
    state.args = args;
    this.add(state);
  }

  private summaryStart(model: string, messages: number, incremental: boolean, t: number): void {
    // The model call waits for the summary: its row starts again once the summary is written.
    const fresh = this.model;
    if (fresh && fresh.row.segments.length === 1 && fresh.row.marks.length === 0) {
      this.rows.splice(this.rows.indexOf(fresh), 1);
      this.byId.delete(fresh.row.id);
      this.model = undefined;
      this.deferred = true;
    }
    this.summaries++;
    this.summary = this.add(
      newRow(
        {
          id: `${this.prefix}summary-${this.summaries}`,
          kind: 'summary',
          step: this.step,
          depth: this.depth,
          label: incremental ? 'summary update' : 'summary',
          detail: clipText(`${model} · ${messages} messages`, 80),
        },
        t,
        'waiting-first-token',
      ),
    );
  }

  private compaction(event: Extract<AgentEvent, { type: 'compaction' }>, t: number): void {
    const spent = spentUsage(event);
    const what = `${event.strategy}: ${event.tokensBefore} → ${event.tokensAfter} tokens`;
    let summary = this.summary;
    if (!summary && spent) {
      // A summary call reported by its compaction alone.
      this.summaryStart(event.strategy, event.summarized, false, t);
      summary = this.summary;
    }
    if (summary) {
      closeOpen(summary.row, t);
      summary.row.end = t;
      summary.row.status = 'ok';
      if (spent) summary.spent = spent;
      const { strategy, tokensBefore, tokensAfter, summarized } = event;
      summary.compaction = { strategy, tokensBefore, tokensAfter, summarized };
      summary.row.marks.push({ at: t, kind: 'compaction', text: clipText(what, 200) });
      this.summary = undefined;
    } else {
      this.model?.row.marks.push({ at: t, kind: 'compaction', text: clipText(what, 200) });
    }
    if (this.deferred) {
      this.deferred = false;
      this.modelRow(t);
    }
  }
}
