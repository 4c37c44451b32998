import type { AgentEvent } from '@rxagent/core';
import type { SubrunState } from '@rxagent/core/events';
import { subrunLine } from '@rxagent/subagents';
import type { RunSnapshot } from './run-snapshot.js';
import { clipText } from './text-limits.js';

/**
 * A sub-agent run working for one of the run's tool calls, as the page nests it under the
 * call: its path of agents, step, the tool it runs, a one-line summary and its tokens.
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
  summary: string;
  tokens: number;
  state: 'running' | 'done' | 'failed';
}

/** Sub-runs kept per tool call (the newest are kept): a bound on what a card shows. */
const MAX_SUBRUNS_PER_CALL = 16;

/**
 * Keeps, per sub-run, the last line its `subrun` events gave (what it is doing), and nests the
 * run's sub-runs under the tool calls that run them. Their step and tokens come from the state
 * fold (`state.subruns`), the one reading of events every view shares.
 *
 * @example
 * const subruns = new SubrunTracker();
 * agent.events$.subscribe((event) => subruns.see(event));
 * const snapshot = subruns.nest(toRunSnapshot(id, label, agent.state$.value), agent.state$.value.subruns);
 */
export class SubrunTracker {
  private readonly lines = new Map<string, { summary: string; tool?: string }>();

  /** Follows one event; true when a view changed. */
  see(event: AgentEvent): boolean {
    if (event.type === 'agent-start') {
      const had = this.lines.size > 0;
      this.lines.clear();
      return had;
    }
    if (event.type !== 'subrun') return false;
    const runId = event.path[event.path.length - 1]?.runId;
    const summary = subrunLine(event);
    if (!runId || summary === undefined)
      return event.event.type === 'message-end' || event.event.type === 'turn-start';
    const inner = event.event;
    const tool =
      inner.type === 'tool-start'
        ? inner.toolName
        : inner.type === 'tool-end'
          ? undefined
          : this.lines.get(runId)?.tool;
    this.lines.set(runId, tool === undefined ? { summary } : { summary, tool });
    return true;
  }

  /** The snapshot with each running tool's sub-runs nested in it. */
  nest(snapshot: RunSnapshot, subruns: Readonly<Record<string, SubrunState>>): RunSnapshot {
    const byCall = new Map<string, SubrunView[]>();
    for (const [runId, state] of Object.entries(subruns)) {
      let views = byCall.get(state.toolCallId);
      if (!views) byCall.set(state.toolCallId, (views = []));
      views.push(toView(runId, state, this.lines.get(runId)));
    }
    if (byCall.size === 0) return snapshot;
    return {
      ...snapshot,
      activeTools: snapshot.activeTools.map((tool) => {
        const views = byCall.get(tool.toolCallId);
        return views ? { ...tool, subruns: views.sort(byRunId).slice(-MAX_SUBRUNS_PER_CALL) } : tool;
      }),
    };
  }
}

function toView(
  runId: string,
  state: SubrunState,
  line: { summary: string; tool?: string } | undefined,
): SubrunView {
  const ended = state.phase === 'idle';
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
