import {
  addUsage,
  emptyUsage,
  initialAgentState,
  reduceAgentState,
  type AgentEvent,
  type AgentState,
  type Usage,
} from '@rxagent/core';
import type { SubrunEvent, SubrunStep } from '@rxagent/core/events';
import { StepScope, type StepRow } from './step-scope.js';
import { formatCost, formatDuration, summaryOf } from './summary.js';

interface Subrun {
  scope: StepScope;
  row: StepRow;
}

/**
 * Collects, from a run's events, where each step spent its time: the model call (time to
 * first token, retries, tokens), each tool call (a short argument — `read README.md`, cut to
 * 36 characters — approval wait, outcome), a context summary call, and under a `subagent`
 * call each sub-run with its own lines. The lines are built from the events; every figure
 * follows the state fold's rules (a line's tokens are what its event spent, `spentUsage`; a
 * sub-run's steps and phase are `state.subruns`; the total is the run's state,
 * `reduceAgentState`), so the lines add up to the total and the total is the summary's.
 * `format()` is the table `--timeline` prints, the times of every line in one column.
 *
 * @example
 * const timeline = new StepTimeline(() => Date.now());
 * agent.events$.subscribe((e) => timeline.see(e));
 * console.log(timeline.format());
 */
export class StepTimeline {
  private start?: number;
  private rows: StepRow[] = [];
  private root = new StepScope(this.rows);
  private readonly subruns = new Map<string, Subrun>();
  private state: AgentState = initialAgentState();

  constructor(private readonly now: () => number) {}

  see(event: AgentEvent): void {
    const t = this.now();
    if (event.type === 'agent-start' || this.start === undefined) this.reset(t);
    this.state = reduceAgentState(this.state, event);
    if (event.type === 'subrun') return this.seeSubrun(event, t);
    if (event.type === 'agent-end') return this.root.finish(t);
    this.root.see(event, t);
  }

  /** One line per model call, tool call, summary call and sub-run, times from the run's start. */
  format(): string {
    const origin = this.start ?? 0;
    const at = (ms: number) => `${((ms - origin) / 1000).toFixed(2)}s`;
    // Each line is what it is (its step, call or sub-run), then its figures from the time on.
    const lines: [head: string, rest: string][] = [];
    const print = (rows: readonly StepRow[], indent: string) => {
      rows.forEach((row, i) => {
        const next = rows[i + 1];
        if (row.kind === 'tool') {
          const branch = next?.kind === 'tool' && next.step === row.step ? '├' : '└';
          lines.push([`${indent}        ${branch} ${row.label}`, this.toolFigures(row, at)]);
          for (const sub of row.rows) {
            lines.push([`${indent}            ↳ ${sub.label}`, this.subrunFigures(sub, at)]);
            print(sub.rows, `${indent}              `);
          }
          return;
        }
        const parts = [`${at(row.start)} ${span(row)}`];
        if (row.firstTokenMs !== undefined) parts.push(`first token ${formatDuration(row.firstTokenMs)}`);
        if (row.spent) parts.push(tokens(row.spent.totalTokens));
        if (row.retries > 0) parts.push(`${row.retries} ${row.retries === 1 ? 'retry' : 'retries'}`);
        lines.push([`${indent}step ${row.step}  ${row.label}`, parts.join(' · ')]);
      });
    };
    print(this.rows, '  ');
    const column = Math.max(0, ...lines.map(([head]) => head.length)) + 1;
    const summary = summaryOf(this.state, 0);
    const total = [
      `  total: ${summary.steps} ${summary.steps === 1 ? 'step' : 'steps'}`,
      tokens(summary.usage.totalTokens),
    ];
    if (summary.subruns) total.push(`${tokens(summary.subruns.totalTokens)} by sub-runs`);
    if (summary.usage.costUsd !== undefined) total.push(formatCost(summary.usage.costUsd));
    return (
      ['Timeline:', ...lines.map(([head, rest]) => head.padEnd(column) + rest), total.join(' · ')].join(
        '\n',
      ) + '\n'
    );
  }

  private toolFigures(row: StepRow, at: (ms: number) => string): string {
    const parts = [`${at(row.start)} ${span(row)}`];
    if (row.approvalMs !== undefined) parts.push(`waited ${formatDuration(row.approvalMs)} for approval`);
    parts.push(row.outcome ?? 'running');
    if (row.spent) parts.push(tokens(row.spent.totalTokens));
    if (row.rows.length > 0) {
      const count = row.rows.length;
      parts.push(
        `${tokens(spentBySubruns(row).totalTokens)} by ${count} ${count === 1 ? 'sub-run' : 'sub-runs'}`,
      );
    }
    return parts.join(' · ');
  }

  private subrunFigures(row: StepRow, at: (ms: number) => string): string {
    const state = row.runId === undefined ? undefined : this.state.subruns[row.runId];
    const phase = state?.phase;
    const outcome =
      phase === 'idle' || phase === 'done'
        ? `done (${state?.stopReason ?? 'completed'})`
        : phase === 'error'
          ? 'failed'
          : phase === 'cancelled'
            ? 'cancelled'
            : (row.outcome ?? 'running');
    const steps = state?.step ?? 0;
    return [
      `${at(row.start)} ${span(row)}`,
      outcome,
      `${steps} ${steps === 1 ? 'step' : 'steps'}`,
      tokens(spentWithin(row).totalTokens),
    ].join(' · ');
  }

  private reset(t: number): void {
    this.start = t;
    this.rows = [];
    this.root = new StepScope(this.rows);
    this.subruns.clear();
    this.state = initialAgentState();
  }

  private seeSubrun(event: SubrunEvent, t: number): void {
    const found = this.subrun(event.path, t);
    if (!found) return;
    const inner = event.event;
    if (inner.type === 'agent-start') return;
    if (inner.type !== 'agent-end') return found.scope.see(inner, t);
    found.row.end = t;
    found.scope.finish(t);
  }

  /** The sub-run at the end of `path`, its line made under its call on first sight. */
  private subrun(path: readonly SubrunStep[], t: number): Subrun | undefined {
    const last = path[path.length - 1];
    if (!last) return undefined;
    const known = this.subruns.get(last.runId);
    if (known) return known;
    const parent = path.length > 1 ? this.subrun(path.slice(0, -1), t)?.scope : this.root;
    const call = parent?.toolRow(last.toolCallId);
    const row: StepRow = {
      kind: 'subrun',
      step: parent?.step ?? 0,
      label: path.map((s) => s.agent).join(' › '),
      start: t,
      retries: 0,
      runId: last.runId,
      rows: [],
    };
    (call?.rows ?? this.rows).push(row);
    const found = { scope: new StepScope(row.rows), row };
    this.subruns.set(last.runId, found);
    return found;
  }
}

/** What a line's own call spent and everything under it, summed as the run's total is. */
function spentWithin(row: StepRow): Usage {
  let total = row.spent ?? emptyUsage();
  for (const sub of row.rows) total = addUsage(total, spentWithin(sub));
  return total;
}

/** What a tool call's sub-runs spent. */
function spentBySubruns(tool: StepRow): Usage {
  return tool.rows.reduce((total, sub) => addUsage(total, spentWithin(sub)), emptyUsage());
}

function tokens(n: number): string {
  return `${n.toLocaleString('en-US')} tokens`;
}

function span(row: StepRow): string {
  return row.end === undefined ? '(unfinished)' : `+${formatDuration(row.end - row.start)}`;
}
