import { formatValue, type Row } from './report.js';
import type { ReplayResult } from './replay-bench.js';

/** The target of the fork-start row (issue 25): ≤ 50 ms at step 500 of a 1,000-step log. */
export const FORK_START_TARGET_MS = 50;

/**
 * The replay rows: replay events/s beside the original run's, and the fork start at the middle
 * step (with its target for the 1,000-step log; a longer log's beside it, to show it grows
 * linearly).
 *
 * @example
 * rows.push(...replayRows([await benchReplay(1_000), await benchReplay(2_000)]));
 */
export function replayRows(results: readonly ReplayResult[]): Row[] {
  const rows: Row[] = [];
  const base = results[0];
  for (const r of results) {
    const n = r.steps.toLocaleString('en-US');
    const section = `Replay: a recorded ${n}-step run (${r.events.toLocaleString('en-US')} events, log ${formatValue(r.logBytes, 'bytes')})`;
    rows.push({
      section,
      name: 'replayRun from the log lines (reading included)',
      value: r.replayEventsPerSecond,
      unit: 'events/s',
      baseline: `original run ${formatValue(r.originalEventsPerSecond, 'events/s')}`,
      ratio: r.originalEventsPerSecond / r.replayEventsPerSecond,
    });
    const half = Math.floor(r.steps / 2).toLocaleString('en-US');
    const fork: Row = {
      section,
      name: `fork start at step ${half}: read the log, forkRun, first model request`,
      value: r.forkStartMs,
      unit: 'ms',
      baseline: `forkRun alone ${formatValue(r.forkOnlyMs, 'ms')}`,
    };
    if (r === base) {
      fork.target = `≤ ${FORK_START_TARGET_MS} ms`;
      fork.met = r.forkStartMs <= FORK_START_TARGET_MS;
    } else if (base) {
      fork.baseline = `${fork.baseline}; ${base.steps.toLocaleString('en-US')}-step log ${formatValue(base.forkStartMs, 'ms')}`;
      fork.ratio = r.forkStartMs / base.forkStartMs;
    }
    rows.push(fork);
  }
  return rows;
}
