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

/** Options of `backToBack`. */
export interface RoundsOptions extends MeasureOptions {
  /**
   * Stop measuring once this much time went by in measured rounds (at least one is measured;
   * no round is started that would likely end past it). Default: no limit.
   */
  budgetMs?: number;
}

/**
 * Measures contenders back to back: each round runs every contender once (the order rotating
 * from round to round, so none always runs after the same one), after warm-up rounds as in
 * `medianOf`; returns the figures of each measured round. A figure's median is its value;
 * a ratio is best taken per round, then its median (`medianRatio`): the machine's speed
 * drifts between rounds, not within one.
 *
 * @example
 * const rounds = await backToBack({ loop: () => usPerStep(loop), agent: () => usPerStep(agent) });
 * const cost = medianRatio(rounds, 'agent', 'loop'); // > 1: the agent is slower
 */
export async function backToBack<K extends string>(
  contenders: Readonly<Record<K, () => number | Promise<number>>>,
  options: RoundsOptions = {},
): Promise<Record<K, number>[]> {
  const keys = Object.keys(contenders) as K[];
  const round = async (n: number) => {
    const figures = {} as Record<K, number>;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[(i + n) % keys.length] as K;
      figures[key] = await contenders[key]();
    }
    return figures;
  };
  let n = 0;
  const warmupEnd = performance.now() + (options.warmupMs ?? 300);
  for (; n < 200 && (n < (options.warmup ?? 3) || performance.now() < warmupEnd); n++) await round(n);
  const rounds: Record<K, number>[] = [];
  const runs = Math.max(1, options.runs ?? 7);
  const start = performance.now();
  while (rounds.length < runs) {
    const roundStart = performance.now();
    rounds.push(await round(n++));
    const now = performance.now();
    if (options.budgetMs !== undefined && now - start + (now - roundStart) > options.budgetMs) break;
  }
  return rounds;
}

/**
 * The median of one contender's figures over the rounds of `backToBack`.
 *
 * @example
 * const usPerStep = medianFigure(rounds, 'agent');
 */
export function medianFigure<K extends string>(rounds: readonly Record<K, number>[], key: K): number {
  return median(rounds.map((r) => r[key]));
}

/**
 * The median over the rounds of `a / b` (each round's figures divided first).
 *
 * @example
 * const cost = medianRatio(rounds, 'agent', 'loop'); // µs per step: > 1 means the agent is slower
 * const slowdown = medianRatio(rounds, 'loop', 'agent'); // rates: > 1 means the agent is slower
 */
export function medianRatio<K extends string>(rounds: readonly Record<K, number>[], a: K, b: K): number {
  return median(rounds.map((r) => r[a] / r[b]));
}
