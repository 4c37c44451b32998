import type { AgentState, StopReason, Usage } from '@rxagent/core';

/**
 * What the summary line reports about a finished run.
 *
 * @example
 * const s: RunSummary = { steps: 3, usage: state.usage, elapsedMs: 3200, reason: 'completed' };
 */
export interface RunSummary {
  steps: number;
  /** The run's usage as the state fold counts it (sub-runs and summary calls included). */
  usage: Usage;
  elapsedMs: number;
  reason: StopReason;
  /** The run's sub-runs, when it had any: how many, and the tokens they spent (part of `usage`). */
  subruns?: { count: number; totalTokens: number };
}

/**
 * The summary of a run from its state (`reduceAgentState`): the figures every other view shows.
 *
 * @example
 * formatSummary(summaryOf(agent.state$.value, 3210));
 */
export function summaryOf(state: AgentState, elapsedMs: number): RunSummary {
  const summary: RunSummary = {
    steps: state.step,
    usage: state.usage,
    elapsedMs,
    reason: state.stopReason ?? 'user-requested',
  };
  const subruns = Object.values(state.subruns);
  if (subruns.length > 0) {
    const totalTokens = subruns.reduce((sum, s) => sum + s.usage.totalTokens, 0);
    summary.subruns = { count: subruns.length, totalTokens };
  }
  return summary;
}

/**
 * The one-line summary printed after a run: steps, tokens (input, output, total; cached
 * input when there is some; the part its sub-runs spent), the cost when every call was
 * priced, wall time, and why it stopped unless it simply completed or was aborted (the
 * "Aborted." line already says that).
 *
 * @example
 * formatSummary({ steps: 3, usage, elapsedMs: 3210, reason: 'completed' });
 * // '3 steps · tokens: 1,204 input, 233 output, 1,437 total · 3.2 s'
 */
export function formatSummary(summary: RunSummary): string {
  const { usage, subruns } = summary;
  const cached = usage.cacheReadTokens > 0 ? ` (${count(usage.cacheReadTokens)} cached)` : '';
  const by = subruns
    ? ` (${count(subruns.totalTokens)} by ${subruns.count} ${subruns.count === 1 ? 'sub-run' : 'sub-runs'})`
    : '';
  const parts = [
    `${summary.steps} ${summary.steps === 1 ? 'step' : 'steps'}`,
    `tokens: ${count(usage.inputTokens)} input${cached}, ${count(usage.outputTokens)} output, ${count(usage.totalTokens)} total${by}`,
  ];
  if (usage.costUsd !== undefined) parts.push(formatCost(usage.costUsd));
  parts.push(formatDuration(summary.elapsedMs));
  if (summary.reason !== 'completed' && summary.reason !== 'user-requested') {
    parts.push(`stopped: ${summary.reason}`);
  }
  return parts.join(' · ');
}

/**
 * A duration for people: `850 ms`, `3.2 s`, `2 min 5 s`.
 *
 * @example
 * formatDuration(65_000); // '1 min 5 s'
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/**
 * A cost in US dollars: four decimals from a cent up, six below.
 *
 * @example
 * formatCost(0.000642); // '$0.000642'
 */
export function formatCost(usd: number): string {
  return `$${usd.toFixed(usd >= 0.01 ? 4 : 6)}`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
