import { Observable, type Subscription } from 'rxjs';
import { runAgent } from '@rxagent/core';
import { baselineLoop } from './baseline-loop.js';
import { activeResources, settledHeapBytes } from './heap.js';
import { median } from './measure.js';
import { neverModel } from './models/never-model.js';

/** What R pending runs cost, and what is left once they are unsubscribed. */
export interface ConcurrencyResult {
  runs: number;
  /** Heap per pending `runAgent` run (median over the rounds), bytes. */
  bytesPerRun: number;
  /** Baseline: heap per pending subscription of a bare never-emitting Observable, bytes. */
  baselineBytesPerSubscription: number;
  /** Baseline: heap per pending `baselineLoop` run on the same model (median), bytes. */
  baselineLoopBytesPerRun: number;
  /** Median of the rounds' runAgent / baseline-loop heap per pending run. */
  vsBaselineLoop: number;
  /** Heap above the starting heap after unsubscribing every baseline-loop run (median), bytes. */
  baselineLoopRetainedBytes: number;
  /** Baseline-loop model streams still subscribed after unsubscribing (should be 0). */
  baselineLoopStreamsAfter: number;
  /** Heap above the starting heap after unsubscribing everything (median), bytes. */
  retainedBytes: number;
  /** Model streams still subscribed while the runs are pending (should be `runs`). */
  liveStreamsWhilePending: number;
  /** Model streams still subscribed after unsubscribing (should be 0). */
  liveStreamsAfter: number;
  /** Timers and handles added by the runs and still active after unsubscribing (should be 0). */
  resourcesAfter: number;
}

/** Options of `benchConcurrency`. */
export interface ConcurrencyOptions {
  /** Measured rounds; figures are medians (default 5). */
  rounds?: number;
  /** Unmeasured rounds first (default 1). */
  warmup?: number;
  /** Full GCs before each heap reading (default 4). */
  gcRounds?: number;
}

function resourceCount(): number {
  const counts = activeResources();
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

/**
 * Heap per pending run of `start` (after full GCs, `runs` of them started), and the heap left
 * above the start once they are all unsubscribed.
 *
 * @example
 * const { per, retained } = await heapPer(10_000, 4, () => run$.subscribe());
 */
export async function heapPer(
  runs: number,
  gcRounds: number,
  start: () => Subscription,
): Promise<{ per: number; retained: number }> {
  const subs: Subscription[] = new Array<Subscription>(runs);
  const before = await settledHeapBytes(gcRounds);
  for (let i = 0; i < runs; i++) subs[i] = start();
  const pending = await settledHeapBytes(gcRounds);
  for (const sub of subs) sub.unsubscribe();
  subs.fill(undefined as unknown as Subscription);
  const after = await settledHeapBytes(gcRounds);
  return { per: (pending - before) / runs, retained: after - before };
}

const never$ = new Observable<never>(() => () => undefined);

/**
 * Starts `runs` concurrent `runAgent` runs on a model that never answers, measures the heap
 * per pending run after full GCs, unsubscribes all, and checks that the heap, the model's
 * streams and the process's timers and handles are back to where they started. Each round
 * measures the same for a bare subscription and for `baselineLoop` runs first.
 *
 * @example
 * const { bytesPerRun, retainedBytes } = await benchConcurrency(10_000);
 */
export async function benchConcurrency(
  runs: number,
  options: ConcurrencyOptions = {},
): Promise<ConcurrencyResult> {
  const rounds = Math.max(1, options.rounds ?? 5);
  const gcRounds = options.gcRounds ?? 4;
  const model = neverModel();
  const loopModel = neverModel();
  const resourcesBefore = resourceCount();
  const perRun: number[] = [];
  const retained: number[] = [];
  const baseline: number[] = [];
  const loopPerRun: number[] = [];
  const loopRetained: number[] = [];
  const ratios: number[] = [];
  let liveWhilePending = 0;
  for (let round = 0; round < (options.warmup ?? 1) + rounds; round++) {
    const measured = round >= (options.warmup ?? 1);
    const bare = await heapPer(runs, gcRounds, () => never$.subscribe());
    const loop = await heapPer(runs, gcRounds, () =>
      baselineLoop({ model: loopModel, prompt: 'hi' }).subscribe(),
    );
    const agent = await heapPer(runs, gcRounds, () => {
      const sub = runAgent({ model, prompt: 'hi' }).subscribe();
      liveWhilePending = Math.max(liveWhilePending, model.live);
      return sub;
    });
    if (!measured) continue;
    baseline.push(bare.per);
    loopPerRun.push(loop.per);
    loopRetained.push(loop.retained);
    ratios.push(agent.per / loop.per);
    perRun.push(agent.per);
    retained.push(agent.retained);
  }
  return {
    runs,
    bytesPerRun: median(perRun),
    baselineBytesPerSubscription: median(baseline),
    baselineLoopBytesPerRun: median(loopPerRun),
    vsBaselineLoop: median(ratios),
    baselineLoopRetainedBytes: median(loopRetained),
    baselineLoopStreamsAfter: loopModel.live,
    retainedBytes: median(retained),
    liveStreamsWhilePending: liveWhilePending,
    liveStreamsAfter: model.live,
    resourcesAfter: Math.max(0, resourceCount() - resourcesBefore),
  };
}
