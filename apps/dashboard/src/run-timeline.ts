import { initialAgentState, reduceAgentState, type AgentEvent, type AgentState } from '@rxagent/core';
import type { SubrunEvent, SubrunStep } from '@rxagent/core/events';
import { clipText } from './text-limits.js';
import { defaultStandIn, estimateCost, type StandInPrice } from './timeline-estimate.js';
import { closeOpen, flattenRows, newRow, toTokens, type RowState } from './timeline-row.js';
import { TimelineScope } from './timeline-scope.js';
import type { TimelineDetail, TimelineRow, TimelineView } from './timeline-types.js';

interface SubrunScope {
  scope: TimelineScope;
  header: RowState;
}

/**
 * A run's timeline: its rows are built from its events — a row per model call, tool call and
 * context summary call, and each sub-run nested under the tool call that runs it with its own
 * model and tool rows — while every figure is taken by the state fold's rules: a row's tokens
 * are what its event spent (`spentUsage`), the totals are the run's state
 * (`reduceAgentState`), a sub-run's step and phase are `state.subruns`. So the timeline's
 * totals are the card's, and its rows add up to them. A run that priced none of its calls
 * (a scripted model) also gets an `estimate` at a stand-in model's prices, labelled as such and
 * never taken for its cost. Times are ms since `agent-start`, from the clock given to `see`. A
 * new `agent-start` starts a new timeline.
 *
 * @example
 * const timeline = new RunTimeline();
 * agent.events$.subscribe((event) => timeline.see(event, scheduler.now()));
 * const view = timeline.view(scheduler.now()); // view.totals.total === agent.state$.value.usage.totalTokens
 */
export class RunTimeline {
  private startedAt?: number;
  private rows: RowState[] = [];
  private readonly byId = new Map<string, RowState>();
  private readonly subruns = new Map<string, SubrunScope>();
  private root = new TimelineScope(this.byId, { prefix: '', depth: 0, rows: this.rows });
  private state: AgentState = initialAgentState();
  private ended = false;
  private stopReason?: string;
  private readonly standIn: StandInPrice | undefined;

  /**
   * @param options `standIn`: the model and prices an unpriced run's estimate uses (default
   *   `gpt-4o-mini` from the built-in price table).
   */
  constructor(options: { standIn?: StandInPrice } = {}) {
    this.standIn = options.standIn ?? defaultStandIn();
  }

  /** Follows one event of the run, seen at `now` (the clock's ms). */
  see(event: AgentEvent, now: number): void {
    if (event.type === 'agent-start' || this.startedAt === undefined) this.reset(now);
    this.state = reduceAgentState(this.state, event);
    const t = now - (this.startedAt ?? now);
    if (event.type === 'subrun') return this.seeSubrun(event, t);
    if (event.type === 'agent-end') {
      this.root.finish(t, 'cancelled');
      this.ended = true;
      this.stopReason = event.reason;
      return;
    }
    this.root.see(event, t);
  }

  /** The run stopped without `agent-end` (cancelled, failed): rows still open end now. */
  stop(now: number, reason: string): void {
    if (this.startedAt === undefined || this.ended) return;
    this.root.finish(now - this.startedAt, 'cancelled');
    this.ended = true;
    this.stopReason = reason;
  }

  /** The rows and totals now (`now` on the clock given to `see`). */
  view(now: number): TimelineView {
    const rows = flattenRows(this.rows, (state, row) => this.decorate(state, row));
    const end = Math.max(0, ...rows.map((r) => r.end ?? 0));
    const view: TimelineView = {
      now: this.ended ? end : now - (this.startedAt ?? now),
      ended: this.ended,
      rows,
      totals: { ...toTokens(this.state.usage), steps: this.state.step },
    };
    if (this.startedAt !== undefined) view.startedAt = this.startedAt;
    if (this.stopReason !== undefined) view.stopReason = this.stopReason;
    const estimate = estimateCost(this.state.usage, rows, this.standIn);
    if (estimate) view.estimate = estimate;
    return view;
  }

  /** One row in full, or undefined for an unknown row. */
  detail(rowId: string): TimelineDetail | undefined {
    const state = this.byId.get(rowId);
    if (!state) return undefined;
    const [row] = flattenRows([state], (s, r) => this.decorate(s, r));
    const detail: TimelineDetail = { row: row as TimelineRow };
    switch (state.row.kind) {
      case 'model':
        detail.input = state.input ?? [];
        if (state.output) detail.output = state.output;
        return detail;
      case 'summary':
        detail.summary = state.summary ?? '';
        if (state.compaction) detail.compaction = state.compaction;
        return detail;
      case 'subrun':
        if (state.subrun) detail.subrun = structuredClone(state.subrun);
        return detail;
      case 'tool':
        detail.args = pretty(state.args);
        if (state.result !== undefined) detail.result = state.result;
        if (state.isError !== undefined) detail.isError = state.isError;
        if (state.approval) detail.approval = state.approval;
        return detail;
    }
  }

  private reset(now: number): void {
    this.startedAt = now;
    this.rows = [];
    this.byId.clear();
    this.subruns.clear();
    this.root = new TimelineScope(this.byId, { prefix: '', depth: 0, rows: this.rows });
    this.state = initialAgentState();
    this.ended = false;
    this.stopReason = undefined;
  }

  private seeSubrun(event: SubrunEvent, t: number): void {
    const found = this.subrunScope(event.path, t);
    if (!found) return;
    const inner = event.event;
    if (inner.type === 'agent-start') return;
    if (inner.type !== 'agent-end') return found.scope.see(inner, t);
    const { header } = found;
    closeOpen(header.row, t);
    header.row.end = t;
    if (header.subrun) header.subrun.stopReason = inner.reason;
    found.scope.finish(t, 'cancelled');
  }

  /** The sub-run at the end of `path`, its header row made (nested under its call) on first sight. */
  private subrunScope(path: readonly SubrunStep[], t: number): SubrunScope | undefined {
    const last = path[path.length - 1];
    if (!last) return undefined;
    const known = this.subruns.get(last.runId);
    if (known) return known;
    const parent = path.length > 1 ? this.subrunScope(path.slice(0, -1), t)?.scope : this.root;
    const call = parent?.toolRow(last.toolCallId);
    const agents = path.map((s) => clipText(s.agent, 80));
    const depth = call ? call.row.depth + 1 : 1;
    const header = newRow(
      {
        id: `s${this.subruns.size + 1}`,
        kind: 'subrun',
        step: parent?.step ?? 0,
        depth,
        label: agents.join(' › '),
      },
      t,
      'subrun',
    );
    header.runId = last.runId;
    header.subrun = { path: agents };
    if (call) {
      header.row.parent = call.row.id;
      call.children.push(header);
    } else this.rows.push(header);
    this.byId.set(header.row.id, header);
    const scope = new TimelineScope(this.byId, {
      prefix: `${header.row.id}.`,
      depth: depth + 1,
      rows: header.children,
      header,
    });
    const found = { scope, header };
    this.subruns.set(last.runId, found);
    return found;
  }

  /** A sub-run's row gets its step and phase from the state fold. */
  private decorate(state: RowState, row: TimelineRow): TimelineRow {
    const subrun = state.runId === undefined ? undefined : this.state.subruns[state.runId];
    if (!subrun) return row;
    row.subrun = { step: subrun.step, phase: subrun.phase };
    if (subrun.phase === 'idle' || subrun.phase === 'done') row.status = 'ok';
    else if (subrun.phase === 'error' || subrun.phase === 'cancelled') row.status = subrun.phase;
    return row;
  }
}

function pretty(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return '[unserializable arguments]';
  }
}
