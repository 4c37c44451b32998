import { collectGarbage } from './heap.js';

/** How many times a figure is measured, after how many unmeasured warm-up runs. */
export interface MeasureOptions {
  /** Measured runs; the figure is their median (default 7). */
  runs?: number;
  /** Runs before measuring, to let the JIT settle (default 3). */
  warmup?: number;
  /** Keep warming up until this much time went by (default 300 ms, at most 200 runs). */
  warmupMs?: number;
  /**
   * A full GC before each measured run (default false). Off on purpose: a forced full GC
   * shrinks the young generation, and the next run then pays 2–3× more in scavenges than in
   * steady state (measured: streaming 2.1–2.5 vs 3.5–4.9 M deltas/s, tool loop 32 vs 10 µs
   * per step). Steady state, where each run pays its share of GC, is what applications see.
   */
  gcBetweenRuns?: boolean;
}

/**
 * The median of some numbers (the mean of the two middle ones for an even count).
 *
 * @example
 * median([3, 1, 2]); // 2
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing: measure at least one run.');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/**
 * Runs `once` unmeasured until warm (`warmup` runs and `warmupMs`), then `runs` times, and
 * returns the median of what the measured runs returned (each run returns its own figure,
 * e.g. a rate).
 *
 * @example
 * const perSecond = await medianOf(async () => countPerSecond(), { runs: 5, warmup: 2 });
 */
export async function medianOf(
  once: () => number | Promise<number>,
  options: MeasureOptions = {},
): Promise<number> {
  const runs = Math.max(1, options.runs ?? 7);
  const warmupEnd = performance.now() + (options.warmupMs ?? 300);
  for (let i = 0; i < 200 && (i < (options.warmup ?? 3) || performance.now() < warmupEnd); i++) await once();
  const gc = options.gcBetweenRuns === true ? collectGarbage() : undefined;
  const figures: number[] = [];
  for (let i = 0; i < runs; i++) {
    gc?.();
    figures.push(await once());
  }
  return median(figures);
}

/**
 * Milliseconds `work` took (high resolution).
 *
 * @example
 * const ms = elapsedMs(() => array.sort());
 */
export function elapsedMs(work: () => void): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

/**
 * Milliseconds an async `work` took.
 *
 * @example
 * const ms = await elapsedMsAsync(() => fetchAll());
 */
export async function elapsedMsAsync(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

/**
 * A rate per second from a count and a duration in ms (guarded against a zero duration).
 *
 * @example
 * perSecond(10_000, 2.5); // 4_000_000
 */
export function perSecond(count: number, ms: number): number {
  return count / (Math.max(ms, 1e-6) / 1000);
}
