import { runAgent, type ChatRequest } from '@rxagent/core';
import {
  backToBack,
  median,
  medianFigure,
  medianOf,
  medianRatio,
  type MeasureOptions,
  type RoundsOptions,
} from './measure.js';
import { noopTool, toolLoopModel } from './models/tool-loop-model.js';
import {
  SYNC_TOOL_LOOP,
  TOOL_LOOP_CONTENDERS,
  timeRuns,
  type ToolLoopContender,
  type ToolLoopSuite,
} from './tool-loop-runs.js';

/** Per-step costs for one run length, in µs, and the costs relative to the baseline loop. */
export interface ToolLoopResult {
  steps: number;
  baseline: number;
  runAgent: number;
  withState: number;
  agent: number;
  /** Medians of the rounds' contender / baseline ratios (> 1: slower than the baseline loop). */
  ratios: Record<Exclude<ToolLoopContender, 'baseline'>, number>;
}

/** Options of `benchToolLoop`. */
export interface ToolLoopOptions extends RoundsOptions {
  /** Steps each figure is measured over: runs of `steps` back to back (default 10,000). */
  stepsPerFigure?: number;
  /** The model and contenders (default `SYNC_TOOL_LOOP`). */
  suite?: ToolLoopSuite;
}

/**
 * µs per step of the four contenders of a suite on runs of `steps` steps (one no-op tool call
 * each, then a final text), measured back to back in each round; each figure is
 * `stepsPerFigure / steps` runs in a row, so short runs are timed over as many steps as long
 * ones.
 *
 * @example
 * const { runAgent, baseline, ratios } = await benchToolLoop(1000);
 */
export async function benchToolLoop(steps: number, options: ToolLoopOptions = {}): Promise<ToolLoopResult> {
  const suite = options.suite ?? SYNC_TOOL_LOOP;
  const model = suite.model(steps);
  const runs = Math.max(1, Math.round((options.stepsPerFigure ?? 10_000) / steps));
  const usPerStep = (c: ToolLoopContender) => async () =>
    ((await timeRuns(c, model, steps, runs, suite)) * 1000) / (runs * steps);
  const rounds = await backToBack(
    {
      baseline: usPerStep('baseline'),
      runAgent: usPerStep('runAgent'),
      withState: usPerStep('withState'),
      agent: usPerStep('agent'),
    },
    options,
  );
  return {
    steps,
    baseline: medianFigure(rounds, 'baseline'),
    runAgent: medianFigure(rounds, 'runAgent'),
    withState: medianFigure(rounds, 'withState'),
    agent: medianFigure(rounds, 'agent'),
    ratios: {
      runAgent: medianRatio(rounds, 'runAgent', 'baseline'),
      withState: medianRatio(rounds, 'withState', 'baseline'),
      agent: medianRatio(rounds, 'agent', 'baseline'),
    },
  };
}

/** One contender's long runs against its short runs, measured back to back. */
export interface GrowthFigures {
  /** µs per step of one run of `longSteps` (median of the rounds). */
  longUs: number;
  /** µs per step of `longSteps / shortSteps` runs of `shortSteps` (median of the rounds). */
  shortUs: number;
  /** Median of the rounds' long / short per-step ratios: about 1 for a linear loop. */
  growth: number;
  /** Rounds measured (fewer for slow contenders, within the time budget). */
  rounds: number;
}

/** The growth of the per-step cost of each contender, and the long runs' cost against the baseline. */
export interface GrowthResult {
  longSteps: number;
  shortSteps: number;
  contenders: Record<ToolLoopContender, GrowthFigures>;
  /**
   * µs per step of the long runs relative to the baseline's: the median of the ratios of the
   * rounds both measured (the ratio of the medians if they share none).
   */
  ratios: Record<Exclude<ToolLoopContender, 'baseline'>, number>;
}

/** Options of `benchGrowth`. */
export interface GrowthOptions {
  /** Measured rounds per contender at most (default 7). */
  runs?: number;
  /** Unmeasured rounds first, for contenders whose round is quick (default 2). */
  warmup?: number;
  /** A round longer than this is never a warm-up (the JIT is warm by then; default 1 s). */
  slowRoundMs?: number;
  /** Measured time per contender: no round is started past it (at least one is; default 15 s). */
  budgetMs?: number;
  /** The model and contenders (default `SYNC_TOOL_LOOP`). */
  suite?: ToolLoopSuite;
}

/**
 * Per-step cost of one `longSteps` run over per-step cost of `longSteps / shortSteps` runs of
 * `shortSteps` (the same number of steps), measured back to back in each round so that the
 * machine's drift cancels out; the median of the rounds' ratios, for each contender. About 1
 * for a linear loop, about `longSteps / shortSteps` for one that copies the transcript per
 * step. The contenders take turns round by round; a slow one (a long run of seconds) is
 * measured fewer times, within `budgetMs`. The long runs also give the per-step cost at
 * `longSteps` against the baseline loop.
 *
 * @example
 * const { contenders } = await benchGrowth(10_000, 100);
 * contenders.runAgent.growth; // ≤ 1.3 for a linear loop
 */
export async function benchGrowth(
  longSteps: number,
  shortSteps: number,
  options: GrowthOptions = {},
): Promise<GrowthResult> {
  const suite = options.suite ?? SYNC_TOOL_LOOP;
  const long = suite.model(longSteps);
  const short = suite.model(shortSteps);
  const repeats = Math.max(1, Math.round(longSteps / shortSteps));
  const runs = Math.max(1, options.runs ?? 7);
  const budgetMs = options.budgetMs ?? 15_000;
  const slowRoundMs = options.slowRoundMs ?? 1_000;
  const state = TOOL_LOOP_CONTENDERS.map((contender) => ({
    contender,
    warmupsLeft: options.warmup ?? 2,
    spentMs: 0,
    done: false,
    figures: [] as { round: number; longUs: number; shortUs: number }[],
  }));
  for (let round = 0; state.some((s) => !s.done); round++) {
    for (let i = 0; i < state.length; i++) {
      const s = state[(i + round) % state.length] as (typeof state)[number];
      if (s.done) continue;
      const longMs = await timeRuns(s.contender, long, longSteps, 1, suite);
      const shortMs = await timeRuns(s.contender, short, shortSteps, repeats, suite);
      const roundMs = longMs + shortMs;
      if (s.warmupsLeft > 0 && roundMs < slowRoundMs) {
        s.warmupsLeft--;
        continue;
      }
      s.figures.push({
        round,
        longUs: (longMs * 1000) / longSteps,
        shortUs: (shortMs * 1000) / (repeats * shortSteps),
      });
      s.spentMs += roundMs;
      s.done = s.figures.length >= runs || s.spentMs + roundMs > budgetMs;
    }
  }
  const figures = {} as Record<ToolLoopContender, GrowthFigures>;
  for (const s of state) {
    figures[s.contender] = {
      longUs: median(s.figures.map((f) => f.longUs)),
      shortUs: median(s.figures.map((f) => f.shortUs)),
      growth: median(s.figures.map((f) => f.longUs / f.shortUs)),
      rounds: s.figures.length,
    };
  }
  const figuresOf = (c: ToolLoopContender) => state.find((s) => s.contender === c)?.figures ?? [];
  const baseline = new Map(figuresOf('baseline').map((f) => [f.round, f.longUs]));
  const vsBaseline = (c: ToolLoopContender) => {
    const own = figuresOf(c);
    const ratios = own.flatMap((f) => {
      const b = baseline.get(f.round);
      return b === undefined ? [] : [f.longUs / b];
    });
    return ratios.length > 0 ? median(ratios) : figures[c].longUs / figures.baseline.longUs;
  };
  return {
    longSteps,
    shortSteps,
    contenders: figures,
    ratios: {
      runAgent: vsBaseline('runAgent'),
      withState: vsBaseline('withState'),
      agent: vsBaseline('agent'),
    },
  };
}

/**
 * Per-step cost late in one long `runAgent` run over per-step cost early in it (steps
 * 9,000–10,000 over 1,000–2,000 of a 10,000-step run, by the time each model call starts):
 * above 1 means steps get dearer as the transcript grows. Median of the runs.
 *
 * @example
 * const growth = await inRunGrowth(10_000); // ≈ 1 for a linear loop
 */
export function inRunGrowth(steps: number, options?: MeasureOptions): Promise<number> {
  const model = toolLoopModel(steps);
  const window = Math.max(1, Math.floor(steps / 10));
  return medianOf(() => {
    const starts: number[] = [];
    const timed = {
      ...model,
      stream: (request: ChatRequest) => (starts.push(performance.now()), model.stream(request)),
    };
    runAgent({ model: timed, tools: [noopTool], prompt: 'go', maxSteps: steps + 1 }).subscribe();
    const perStep = (from: number) => ((starts[from + window] ?? 0) - (starts[from] ?? 0)) / window;
    return perStep(steps - window) / perStep(window);
  }, options);
}
