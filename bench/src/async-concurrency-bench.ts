import { Subscription, type Observer } from 'rxjs';
import { Agent, runAgent, withState } from '@rxagent/core';
import { heapPer } from './concurrency-bench.js';
import { expandLoop } from './expand-loop.js';
import { median } from './measure.js';
import { asyncNoopTool } from './models/async-tool-loop-model.js';
import { pendingAsyncModel, type PendingAsyncModel } from './models/pending-async-model.js';

/**
 * The pending runs measured on the asynchronous source: the source alone (a subscriber of
 * the model's stream), the smallest `expand` loop, and the three ways to run the agent.
 *
 * @example
 * const contender: PendingContender = 'withState';
 */
export type PendingContender = 'source' | 'expandLoop' | 'runAgent' | 'withState' | 'agent';

/**
 * The contenders in the order they are reported.
 *
 * @example
 * for (const c of PENDING_CONTENDERS) console.log(c, result.bytesPerRun[c]);
 */
export const PENDING_CONTENDERS: readonly PendingContender[] = [
  'source',
  'expandLoop',
  'runAgent',
  'withState',
  'agent',
];

const noop = () => undefined;
const ignore: Observer<unknown> = { next: noop, error: noop, complete: noop };

/** Starts one pending run of a contender on the model; the Subscription ends it. */
const START: Record<PendingContender, (model: PendingAsyncModel) => Subscription> = {
  source: (model) => model.stream({ messages: [] }).subscribe(ignore),
  expandLoop: (model) => expandLoop({ model, tool: asyncNoopTool, prompt: 'hi' }).subscribe(ignore),
  runAgent: (model) => runAgent({ model, prompt: 'hi' }).subscribe(ignore),
  withState: (model) => {
    const { events$, state$ } = withState(runAgent({ model, prompt: 'hi' }));
    const sub = state$.subscribe(noop);
    sub.add(events$.subscribe(ignore));
    return sub;
  },
  agent: (model) => {
    const agent = new Agent({ model });
    agent.subscribe(noop);
    agent.prompt('hi').catch(noop);
    return new Subscription(() => agent.abort());
  },
};

/** Heap per pending run on the asynchronous source, and what is left after unsubscribing. */
export interface AsyncConcurrencyResult {
  runs: number;
  /** Heap per pending run of each contender (median over the rounds), bytes. */
  bytesPerRun: Record<PendingContender, number>;
  /** Medians of the rounds' contender / source heap per pending run. */
  vsSource: Record<Exclude<PendingContender, 'source'>, number>;
  /** Heap above the starting heap after unsubscribing every run (median over the rounds), bytes. */
  retainedBytes: Record<PendingContender, number>;
  /** Model streams opened per started run (each contender must reach the model: 1). */
  streamsPerRun: Record<PendingContender, number>;
  /** Model streams still open after unsubscribing everything (should be 0). */
  liveStreamsAfter: number;
}

/** Options of `benchAsyncConcurrency`. */
export interface AsyncConcurrencyOptions {
  /** Measured rounds; figures are medians (default 3). */
  rounds?: number;
  /** Unmeasured rounds first (default 1). */
  warmup?: number;
  /** Full GCs before each heap reading (default 4). */
  gcRounds?: number;
}

/**
 * Starts `runs` concurrent runs of each contender on a model whose streams wait on an async
 * generator that never yields (`pendingAsyncModel`), measures the heap per pending run after
 * full GCs, unsubscribes all (`Agent`: `abort()`), and measures what is left. The contenders
 * take turns in each round (the order rotating); ratios are medians of the rounds' ratios to
 * the source alone, a bare subscriber of the same model stream.
 *
 * @example
 * const { bytesPerRun, vsSource } = await benchAsyncConcurrency(10_000);
 */
export async function benchAsyncConcurrency(
  runs: number,
  options: AsyncConcurrencyOptions = {},
): Promise<AsyncConcurrencyResult> {
  const rounds = Math.max(1, options.rounds ?? 3);
  const warmup = options.warmup ?? 1;
  const gcRounds = options.gcRounds ?? 4;
  const model = pendingAsyncModel();
  const figures: Record<PendingContender, { per: number; retained: number; streams: number }[]> = {
    source: [],
    expandLoop: [],
    runAgent: [],
    withState: [],
    agent: [],
  };
  for (let round = 0; round < warmup + rounds; round++) {
    const n = PENDING_CONTENDERS.length;
    for (let i = 0; i < n; i++) {
      const c = PENDING_CONTENDERS[(i + round) % n] as PendingContender;
      // Counted over the whole measure: Agent.prompt() opens its stream a few microtasks later
      // (still before the heap is read: the reading waits for event-loop turns).
      const opened = model.opened;
      const { per, retained } = await heapPer(runs, gcRounds, () => START[c](model));
      if (round >= warmup) figures[c].push({ per, retained, streams: (model.opened - opened) / runs });
    }
  }
  const perRun = (c: PendingContender) => median(figures[c].map((f) => f.per));
  const ratio = (c: PendingContender) =>
    median(figures[c].map((f, i) => f.per / (figures.source[i] as { per: number }).per));
  const each = <T>(f: (c: PendingContender) => T) =>
    Object.fromEntries(PENDING_CONTENDERS.map((c) => [c, f(c)])) as Record<PendingContender, T>;
  return {
    runs,
    bytesPerRun: each(perRun),
    vsSource: {
      expandLoop: ratio('expandLoop'),
      runAgent: ratio('runAgent'),
      withState: ratio('withState'),
      agent: ratio('agent'),
    },
    retainedBytes: each((c) => median(figures[c].map((f) => f.retained))),
    streamsPerRun: each((c) => median(figures[c].map((f) => f.streams))),
    liveStreamsAfter: model.live,
  };
}
