import type { AgentEvent, Usage } from '@rxagent/core';
import { spentUsage } from '@rxagent/core/provider';
import { describeCall } from './tool-lines.js';

/** Width of a tool call's line label: its name and a short argument. */
export const CALL_WIDTH = 36;

/**
 * One line of `--timeline`: a model call, a tool call, a context summary call, or a sub-run
 * (with its own lines under it). Times are the clock's ms; `spent` is what its own call spent
 * (`spentUsage` of the event that reports it: the rule of the run's total).
 *
 * @example
 * const row: StepRow = { kind: 'model', step: 1, label: 'model', start: 0, retries: 0, rows: [] };
 */
export interface StepRow {
  kind: 'model' | 'tool' | 'summary' | 'subrun';
  step: number;
  /**
   * `model`, `summary`, a tool call in a few words (`read README.md`, cut to `CALL_WIDTH`
   * characters with `…`), or the sub-run's agents.
   */
  label: string;
  start: number;
  end?: number;
  firstTokenMs?: number;
  retries: number;
  spent?: Usage;
  approvalAt?: number;
  approvalMs?: number;
  outcome?: 'ok' | 'error' | 'rejected' | 'cancelled';
  /** A sub-run's id (its step and phase are the state fold's `state.subruns[runId]`). */
  runId?: string;
  /** A tool call's sub-runs; a sub-run's own lines. */
  rows: StepRow[];
}

/**
 * The lines of one run — the run itself or one of its sub-runs — from that run's own events.
 *
 * @example
 * const scope = new StepScope(rows);
 * scope.see({ type: 'turn-start', step: 1 }, Date.now());
 */
export class StepScope {
  step = 0;
  private model?: StepRow;
  private summary?: StepRow;
  private deferred = false;
  private readonly tools = new Map<string, StepRow>();
  /** Tool calls started while the model call streamed (eager tools): a retry drops them. */
  private early: StepRow[] = [];

  constructor(private readonly rows: StepRow[]) {}

  /** The row of this run's tool call with that id. */
  toolRow(toolCallId: string): StepRow | undefined {
    return this.tools.get(toolCallId);
  }

  /** Follows one of this run's own events, seen at `t`. */
  see(event: AgentEvent, t: number): void {
    switch (event.type) {
      case 'turn-start':
        this.step = event.step;
        this.early = [];
        this.deferred = false;
        this.model = this.add('model', 'model', t);
        return;
      case 'retry': {
        for (const early of this.early) endOpen(early, t, 'cancelled');
        this.early = [];
        const row = this.summary ?? this.model;
        if (!row) return;
        row.retries++;
        row.firstTokenMs = undefined;
        return;
      }
      case 'message-update':
        if (this.model && this.model.firstTokenMs === undefined)
          this.model.firstTokenMs = t - this.model.start;
        return;
      case 'summary-update':
        if (this.summary && this.summary.firstTokenMs === undefined)
          this.summary.firstTokenMs = t - this.summary.start;
        return;
      case 'message-end': {
        const spent = spentUsage(event);
        const message = event.message;
        if (message.role === 'assistant' && this.model) {
          this.early = [];
          this.model.end = t;
          if (spent) this.model.spent = spent;
          this.model = undefined;
        } else if (message.role === 'tool' && spent) {
          const tool = this.tools.get(message.toolCallId);
          if (tool) tool.spent = spent;
        }
        return;
      }
      case 'tool-start': {
        const row = this.add('tool', shortCall(event.toolName, event.args), t);
        this.tools.set(event.toolCallId, row);
        // An eager call starts while the model still streams.
        if (this.model) this.early.push(row);
        return;
      }
      case 'approval-request': {
        const row = this.tools.get(event.toolCallId);
        if (row) row.approvalAt = t;
        return;
      }
      case 'approval-end': {
        const row = this.tools.get(event.toolCallId);
        if (row?.approvalAt !== undefined) row.approvalMs = t - row.approvalAt;
        if (row && !event.approved) row.outcome = 'rejected';
        return;
      }
      case 'tool-end': {
        const row = this.tools.get(event.toolCallId);
        if (!row) return;
        row.end = t;
        row.outcome ??= event.isError ? 'error' : 'ok';
        // Its sub-runs end with it.
        for (const sub of row.rows) endOpen(sub, t, event.isError ? 'error' : 'cancelled');
        return;
      }
      case 'summary-start': {
        const fresh = this.model;
        if (fresh && fresh.firstTokenMs === undefined && fresh.retries === 0) {
          // The model call waits for the summary: its line starts once the summary is written.
          this.rows.splice(this.rows.indexOf(fresh), 1);
          this.model = undefined;
          this.deferred = true;
        }
        this.summary = this.add('summary', 'summary', t);
        return;
      }
      case 'compaction': {
        const spent = spentUsage(event);
        const summary = this.summary ?? (spent ? this.add('summary', 'summary', t) : undefined);
        if (summary) {
          summary.end = t;
          if (spent) summary.spent = spent;
          this.summary = undefined;
        }
        if (this.deferred) {
          this.deferred = false;
          this.model = this.add('model', 'model', t);
        }
        return;
      }
      default:
        return;
    }
  }

  /** The run ended: lines still open end at `t`. */
  finish(t: number): void {
    for (const row of this.rows) endOpen(row, t, 'cancelled');
    this.model = undefined;
    this.summary = undefined;
  }

  private add(kind: StepRow['kind'], label: string, t: number): StepRow {
    const row: StepRow = { kind, step: this.step, label, start: t, retries: 0, rows: [] };
    this.rows.push(row);
    return row;
  }
}

/**
 * Ends a line still open at `t` (and the lines under it).
 *
 * @example
 * endOpen(row, Date.now(), 'cancelled');
 */
export function endOpen(row: StepRow, t: number, outcome: 'error' | 'cancelled'): void {
  if (row.end === undefined) {
    row.end = t;
    if (row.kind === 'tool' || row.kind === 'subrun') row.outcome ??= outcome;
  }
  for (const sub of row.rows) endOpen(sub, t, outcome);
}

/**
 * A tool call in a few words (`read packages/core/README.md`), at most `CALL_WIDTH`
 * characters: a longer one is cut with `…`.
 *
 * @example
 * shortCall('read', { path: 'packages/subagents/src/subagent-tool.ts' }); // 'read packages/subagents/src/subagen…'
 */
export function shortCall(name: string, args: unknown): string {
  const call = describeCall(name, args);
  return call.length <= CALL_WIDTH ? call : `${call.slice(0, CALL_WIDTH - 1)}…`;
}
