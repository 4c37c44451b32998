import type { AgentEvent } from '@rxagent/core';
import type { SubrunEvent, SubrunState } from '@rxagent/core/events';
import { subrunLine } from '@rxagent/subagents';
import type { RunSnapshot, ToolView } from './run-snapshot.js';
import { clipText } from './text-limits.js';

/**
 * A sub-agent run working for one of the run's tool calls, as the page nests it under the
 * call: its path of agents, step, the tool it runs, what it is doing and its tokens.
 *
 * @example
 * const view: SubrunView = { runId: 'r/c1/0', agent: 'scout', path: ['scout'], step: 2, tool: 'read', summary: 'scout → read {"path":"a.ts"}', tokens: 812, state: 'running' };
 */
export interface SubrunView {
  runId: string;
  agent: string;
  /** Agents from the call's sub-run down to this one (length > 1: nested deeper). */
  path: string[];
  step: number;
  tool?: string;
  /** What it did last, in its own words (`scout → read {"path":"a.ts"}`), without the step. */
  summary: string;
  /** What it spent (its own calls; a nested sub-run has its own line). */
  tokens: number;
  state: 'running' | 'done' | 'failed';
}

/** Sub-runs kept per tool call (the newest are kept): a bound on what a card shows. */
const MAX_SUBRUNS_PER_CALL = 16;

interface Line {
  summary: string;
  tool?: string;
  /** The call of the run it works for. */
  toolCallId: string;
  /** Order of the lines: the call's own label is its newest sub-run line. */
  seq: number;
}

/**
 * The words of a sub-run's event, its agent named once (`scout → read {"path":"a.ts"}`), or
 * undefined for events that say nothing new: deltas, message starts, and step starts (the
 * step is shown beside the line, from the state fold).
 */
function lineOf(event: SubrunEvent): string | undefined {
  if (event.event.type === 'turn-start') return undefined;
  const own = event.path.slice(-1);
  return subrunLine({ ...event, path: own });
}

/**
 * Keeps, per sub-run, the last line its `subrun` events gave (what it is doing), and nests the
 * run's sub-runs under the tool calls that run them. Every number — a sub-run's step and
 * tokens, the call's tokens, its progress — comes from the state fold (`state.subruns`), the
 * one reading of events every view shares; only the words come from the events.
 *
 * @example
 * const subruns = new SubrunTracker();
 * agent.events$.subscribe((event) => subruns.see(event));
 * const snapshot = subruns.nest(toRunSnapshot(id, label, agent.state$.value), agent.state$.value.subruns);
 */
export class SubrunTracker {
  private readonly lines = new Map<string, Line>();
  private seq = 0;

  /** Follows one event; true when a view changed. */
  see(event: AgentEvent): boolean {
    if (event.type === 'agent-start') {
      const had = this.lines.size > 0;
      this.lines.clear();
      return had;
    }
    if (event.type === 'tool-end') {
      // The call's sub-runs leave the card with it.
      for (const [runId, line] of this.lines)
        if (line.toolCallId === event.toolCallId) this.lines.delete(runId);
      return false;
    }
    if (event.type !== 'subrun') return false;
    const runId = event.path[event.path.length - 1]?.runId;
    const inner = event.event;
    const summary = lineOf(event);
    // A new step or a finished message changes the numbers the fold keeps: push them.
    if (!runId || summary === undefined) return inner.type === 'message-end' || inner.type === 'turn-start';
    const known = this.lines.get(runId);
    const tool =
      inner.type === 'tool-start' ? inner.toolName : inner.type === 'tool-end' ? undefined : known?.tool;
    const line: Line = { summary, toolCallId: event.toolCallId, seq: ++this.seq };
    if (tool !== undefined) line.tool = tool;
    this.lines.set(runId, line);
    return true;
  }

  /**
   * The snapshot with each running tool's sub-runs nested in it; a call that runs sub-runs
   * shows their tokens and, unless it reports progress of its own, its newest sub-run line
   * (with the share of its sub-runs done when some are).
   */
  nest(snapshot: RunSnapshot, subruns: Readonly<Record<string, SubrunState>>): RunSnapshot {
    const byCall = new Map<string, [string, SubrunState][]>();
    for (const entry of Object.entries(subruns)) {
      const list = byCall.get(entry[1].toolCallId);
      if (list) list.push(entry);
      else byCall.set(entry[1].toolCallId, [entry]);
    }
    if (byCall.size === 0) return snapshot;
    return {
      ...snapshot,
      activeTools: snapshot.activeTools.map((tool) => {
        const entries = byCall.get(tool.toolCallId);
        return entries ? this.nestInto(tool, entries) : tool;
      }),
    };
  }

  private nestInto(tool: ToolView, entries: [string, SubrunState][]): ToolView {
    const views = entries.map(([runId, state]) => toView(runId, state, this.lines.get(runId)));
    views.sort(byRunId);
    const next: ToolView = {
      ...tool,
      subruns: views.slice(-MAX_SUBRUNS_PER_CALL),
      tokens: entries.reduce((sum, [, s]) => sum + s.usage.totalTokens, 0),
    };
    if (tool.progress) return next;
    let newest: Line | undefined;
    for (const [runId] of entries) {
      const line = this.lines.get(runId);
      if (line && (!newest || line.seq > newest.seq)) newest = line;
    }
    const done = views.filter((v) => v.state !== 'running').length;
    const label = newest?.summary ?? `${views.length} sub-run${views.length === 1 ? '' : 's'} starting`;
    next.progress = views.length > 1 && done > 0 ? { label, ratio: done / views.length } : { label };
    return next;
  }
}

function toView(runId: string, state: SubrunState, line: Line | undefined): SubrunView {
  const ended = state.phase === 'idle' || state.phase === 'done';
  const failed = state.phase === 'error' || state.phase === 'cancelled';
  const view: SubrunView = {
    runId,
    agent: clipText(state.path[state.path.length - 1] ?? ''),
    path: state.path.map((p) => clipText(p)),
    step: state.step,
    summary: clipText(line?.summary ?? ''),
    tokens: state.usage.totalTokens,
    state: failed ? 'failed' : ended ? 'done' : 'running',
  };
  if (line?.tool !== undefined) view.tool = clipText(line.tool);
  return view;
}

function byRunId(a: SubrunView, b: SubrunView): number {
  return a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0;
}
