import type { ForkStartResult } from './fork-start-bench.js';
import { formatValue, type Row } from './report.js';
import type { ReplayResult } from './replay-bench.js';

/** The target of the fork-start row (issue 25): ≤ 50 ms at step 500 of a 1,000-step log. */
export const FORK_START_TARGET_MS = 50;

/** Linear in the log: a doubling of the log costs at most this much more. */
export const FORK_GROWTH_TARGET = 2.3;

const n = (steps: number) => steps.toLocaleString('en-US');

/**
 * The replay rows: replay events/s beside the original run's, for each recorded run.
 *
 * @example
 * rows.push(...replayRows([await benchReplay(1_000, lines)]));
 */
export function replayRows(results: readonly ReplayResult[]): Row[] {
  return results.map((r) => ({
    section: `Replay: a recorded ${n(r.steps)}-step run (${n(r.events)} events, log ${formatValue(r.logBytes, 'bytes')})`,
    name: 'replayRun from the log lines (reading included)',
    value: r.replayEventsPerSecond,
    unit: 'events/s',
    baseline: `original run ${formatValue(r.originalEventsPerSecond, 'events/s')}`,
    ratio: r.originalEventsPerSecond / r.replayEventsPerSecond,
  }));
}

/**
 * The fork-start rows: each log's fork start at its middle step (the first log's against
 * `FORK_START_TARGET_MS`), each longer log's growth per doubling against `FORK_GROWTH_TARGET`.
 *
 * @example
 * rows.push(...forkStartRows(await benchForkStart(logs)));
 */
export function forkStartRows(result: ForkStartResult): Row[] {
  const section = `Replay: fork start at the middle step (median of ${result.rounds} rounds, a full GC before each fork)`;
  return result.figures.map((f, i): Row => {
    const row: Row = {
      section,
      name: `${n(f.steps)}-step log, step ${n(Math.floor(f.steps / 2))}: read the log, forkRun, first model request`,
      value: f.forkStartMs,
      unit: 'ms',
      baseline: `forkRun alone ${formatValue(f.forkOnlyMs, 'ms')}`,
    };
    const before = result.figures[i - 1];
    const growth = result.perDoubling[i - 1];
    if (!before || growth === undefined) {
      row.target = `≤ ${FORK_START_TARGET_MS} ms`;
      row.met = f.forkStartMs <= FORK_START_TARGET_MS;
      return row;
    }
    row.baseline = `${row.baseline}; ${n(before.steps)}-step log ${formatValue(before.forkStartMs, 'ms')}`;
    row.ratio = growth;
    row.target = `linear: ≤ ${FORK_GROWTH_TARGET}× per doubling`;
    row.met = growth <= FORK_GROWTH_TARGET;
    return row;
  });
}
