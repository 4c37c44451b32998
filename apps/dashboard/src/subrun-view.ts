import type { AgentEvent } from '@rxagent/core';
import { isSubagentProgress, type SubagentProgress } from '@rxagent/subagents';
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
 * Follows the `SubagentProgress` of a run's `tool-update` events and keeps, per running tool
 * call, the latest view of each of its sub-runs (forgotten when the call ends).
 *
 * @example
 * const subruns = new SubrunTracker();
 * agent.events$.subscribe((event) => subruns.see(event));
 * const snapshot = subruns.nest(toRunSnapshot(id, label, agent.state$.value));
 */
export class SubrunTracker {
  private readonly calls = new Map<string, Map<string, SubrunView>>();

  /** Folds one event; true when the views changed. */
  see(event: AgentEvent): boolean {
    if (event.type === 'tool-end') return this.calls.delete(event.toolCallId);
    if (event.type === 'agent-end') {
      const had = this.calls.size > 0;
      this.calls.clear();
      return had;
    }
    if (event.type !== 'tool-update' || !isSubagentProgress(event.progress)) return false;
    let runs = this.calls.get(event.toolCallId);
    if (!runs) this.calls.set(event.toolCallId, (runs = new Map<string, SubrunView>()));
    const progress = event.progress;
    runs.delete(progress.runId);
    runs.set(progress.runId, toView(progress, runs.get(progress.runId)));
    if (runs.size > MAX_SUBRUNS_PER_CALL) runs.delete(runs.keys().next().value as string);
    return true;
  }

  /** The snapshot with each running tool's sub-runs nested in it. */
  nest(snapshot: RunSnapshot): RunSnapshot {
    if (this.calls.size === 0) return snapshot;
    return {
      ...snapshot,
      activeTools: snapshot.activeTools.map((tool) => {
        const runs = this.calls.get(tool.toolCallId);
        return runs ? { ...tool, subruns: [...runs.values()].sort(byRunId) } : tool;
      }),
    };
  }
}

function toView(progress: SubagentProgress, before: SubrunView | undefined): SubrunView {
  const ended = progress.kind === 'end' || progress.kind === 'error';
  const state =
    progress.kind === 'error' ? 'failed' : ended && progress.path.length === 1 ? 'done' : 'running';
  const view: SubrunView = {
    runId: progress.runId,
    agent: clipText(progress.agent),
    path: progress.path.map((p) => clipText(p)),
    step: progress.step,
    summary: clipText(progress.summary),
    tokens: progress.tokens,
    // A nested sub-run ending does not end the one that started it.
    state: before?.state === 'failed' ? 'failed' : state,
  };
  if (progress.tool !== undefined) view.tool = clipText(progress.tool);
  return view;
}

function byRunId(a: SubrunView, b: SubrunView): number {
  return a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0;
}
