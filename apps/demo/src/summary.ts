import type { StopReason, Usage } from '@rxagent/core';

/**
 * What the summary line reports about a finished run.
 *
 * @example
 * const s: RunSummary = { steps: 3, usage: agentEnd.usage, elapsedMs: 3200, reason: 'completed' };
 */
export interface RunSummary {
  steps: number;
  usage: Usage;
  elapsedMs: number;
  reason: StopReason;
}

/**
 * The one-line summary printed after a run: steps, tokens (input, output, total; cached
 * input when there is some), wall time, and why it stopped unless it simply completed or
 * was aborted (the "Aborted." line already says that).
 *
 * @example
 * formatSummary({ steps: 3, usage, elapsedMs: 3210, reason: 'completed' });
 * // '3 steps · tokens: 1,204 input, 233 output, 1,437 total · 3.2 s'
 */
export function formatSummary(summary: RunSummary): string {
  const { usage } = summary;
  const cached = usage.cacheReadTokens > 0 ? ` (${count(usage.cacheReadTokens)} cached)` : '';
  const parts = [
    `${summary.steps} ${summary.steps === 1 ? 'step' : 'steps'}`,
    `tokens: ${count(usage.inputTokens)} input${cached}, ${count(usage.outputTokens)} output, ${count(usage.totalTokens)} total`,
    formatDuration(summary.elapsedMs),
  ];
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

function count(n: number): string {
  return n.toLocaleString('en-US');
}
