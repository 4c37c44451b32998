import { benchAnthropicAdapter, benchOpenAIAdapter } from './adapter-bench.js';
import { benchConcurrency } from './concurrency-bench.js';
import { benchAsyncStreaming, benchStreaming } from './streaming-bench.js';
import { adapterRows } from './adapter-rows.js';
import { benchDurable, type DurableResult } from './durable-bench.js';
import { durableRows } from './durable-rows.js';
import { benchLimits } from './limits-bench.js';
import { limitsRows } from './limits-rows.js';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { concurrencyRows } from './concurrency-rows.js';
import { asyncStreamingRows, streamingRows } from './targets.js';
import { benchGrowth, benchToolLoop, inRunGrowth } from './tool-loop-bench.js';
import { TOOL_LOOP_CONTENDERS } from './tool-loop-runs.js';
import { ASYNC_TOOL_LOOP_ROWS, toolLoopRows } from './tool-loop-rows.js';
import { ASYNC_TOOL_LOOP } from './async-tool-loop-runs.js';
import { benchAsyncConcurrency, PENDING_CONTENDERS } from './async-concurrency-bench.js';
import { asyncConcurrencyRows } from './async-concurrency-rows.js';
import { benchSubscriptions } from './subscriptions-bench.js';
import { subscriptionsRows } from './subscriptions-rows.js';

const quick = { runs: 2, warmup: 1, warmupMs: 0 };
const finitePositive = (value: number) => Number.isFinite(value) && value > 0;

describe('benchmark smoke test (tiny sizes, no timing assertions)', () => {
  it('streaming (synchronous source) returns finite positive rates for every contender', async () => {
    const result = await benchStreaming(200, quick);
    for (const key of [
      'runAgent',
      'stateFold',
      'subject',
      'asyncGenerator',
      'baselineLoop',
      'runAgentVsBaseline',
      'stateFoldVsBaseline',
      'runAgentVsSubject',
    ] as const) {
      expect(finitePositive(result[key])).toBe(true);
    }
    expect(streamingRows(result).filter((r) => r.met !== undefined)).toHaveLength(2);
  });

  it('streaming (asynchronous source) returns the baseline loop, runAgent, state$ and Agent rates and their ratios', async () => {
    const result = await benchAsyncStreaming(200, quick);
    for (const key of [
      'source',
      'baselineLoop',
      'runAgent',
      'stateFold',
      'agent',
      'runAgentVsBaseline',
      'stateFoldVsBaseline',
    ] as const) {
      expect(finitePositive(result[key])).toBe(true);
    }
    expect(Object.values(result.vsSource).every(finitePositive)).toBe(true);
    const rows = asyncStreamingRows(result);
    expect(rows.filter((r) => r.met !== undefined).map((r) => [r.name, r.target])).toEqual([
      ['runAgent → subscriber', '≥ 0.8× baseline rate (ratio ≤ 1.25×)'],
      ['withState(run$).state$ fold', '≥ 0.7× baseline rate (ratio ≤ 1.43×)'],
      ['runAgent → subscriber vs the source alone', "≥ 0.7× the source's rate (ratio ≤ 1.43×)"],
      ['withState(run$).state$ fold vs the source alone', "≥ 0.7× the source's rate (ratio ≤ 1.43×)"],
      [
        'new Agent({ model }).prompt() → listener vs the source alone',
        "≥ 0.7× the source's rate (ratio ≤ 1.43×)",
      ],
    ]);
  });

  it('tool loop returns per-step costs of the baseline loop, runAgent, withState and Agent, and their growth', async () => {
    const short = await benchToolLoop(5, { ...quick, stepsPerFigure: 20 });
    const long = await benchToolLoop(20, { ...quick, stepsPerFigure: 20 });
    for (const r of [short, long]) {
      expect(TOOL_LOOP_CONTENDERS.map((c) => r[c]).every(finitePositive)).toBe(true);
      expect(Object.values(r.ratios).every(finitePositive)).toBe(true);
    }
    const growth = await benchGrowth(20, 5, { runs: 2, warmup: 1 });
    for (const c of TOOL_LOOP_CONTENDERS) {
      const g = growth.contenders[c];
      expect([g.longUs, g.shortUs, g.growth].every(finitePositive)).toBe(true);
      expect(g.rounds).toBeGreaterThanOrEqual(1);
    }
    // A tiny budget still measures one round of each.
    const hurried = await benchGrowth(20, 5, { runs: 5, warmup: 0, budgetMs: 0 });
    expect(TOOL_LOOP_CONTENDERS.map((c) => hurried.contenders[c].rounds)).toEqual([1, 1, 1, 1]);
    const inRun = await inRunGrowth(20, { runs: 1, warmup: 0, warmupMs: 0 });
    expect(finitePositive(inRun)).toBe(true);
    const rows = toolLoopRows([short, long], growth, inRun);
    const names = rows.map((r) => r.name);
    expect(names).toContain('new Agent({ model, tools }).prompt(), S = 20');
    expect(names).toContain('runAgent per-step growth, S = 20 / S = 5 (back to back) (2 rounds)');
    // Per step: 3 contenders × 3 lengths; growth: 3 contenders.
    expect(rows.filter((r) => r.met !== undefined)).toHaveLength(12);
  });

  it('tool loop on the asynchronous source returns per-step costs of the expand loop and the agent, and their growth', async () => {
    const suite = ASYNC_TOOL_LOOP;
    const short = await benchToolLoop(5, { ...quick, stepsPerFigure: 20, suite });
    const long = await benchToolLoop(20, { ...quick, stepsPerFigure: 20, suite });
    for (const r of [short, long]) {
      expect(TOOL_LOOP_CONTENDERS.map((c) => r[c]).every(finitePositive)).toBe(true);
      expect(Object.values(r.ratios).every(finitePositive)).toBe(true);
    }
    const growth = await benchGrowth(20, 5, { runs: 2, warmup: 1, suite });
    for (const c of TOOL_LOOP_CONTENDERS) {
      const g = growth.contenders[c];
      expect([g.longUs, g.shortUs, g.growth].every(finitePositive)).toBe(true);
    }
    expect(Object.values(growth.ratios).every(finitePositive)).toBe(true);
    const rows = toolLoopRows([short, long], growth, undefined, ASYNC_TOOL_LOOP_ROWS);
    expect(rows.map((r) => r.name)).toContain('expand loop, S = 20');
    expect(rows.find((r) => r.name === 'runAgent, S = 5')?.target).toBe('≤ 2× expand loop');
    // Per step: 3 contenders × 3 lengths; growth: 3 contenders.
    expect(rows.filter((r) => r.met !== undefined)).toHaveLength(12);
  });

  it('concurrency memory on the asynchronous source measures every contender and finds nothing open after unsubscribing', async () => {
    const result = await benchAsyncConcurrency(200, { rounds: 1, warmup: 0, gcRounds: 1 });
    for (const c of PENDING_CONTENDERS) {
      expect(Number.isFinite(result.bytesPerRun[c])).toBe(true);
      expect(Number.isFinite(result.retainedBytes[c])).toBe(true);
      // Every run of every contender reached the model before the heap was read.
      expect(result.streamsPerRun[c]).toBe(1);
    }
    expect(Object.values(result.vsSource).every(Number.isFinite)).toBe(true);
    expect(result.liveStreamsAfter).toBe(0);
    const rows = asyncConcurrencyRows(result);
    expect(rows.filter((r) => r.target === '≤ 2× the source alone')).toHaveLength(3);
    expect(rows.find((r) => r.name.startsWith('model streams opened'))?.met).toBe(true);
  }, 60_000);

  it('counts subscribe() calls per step of every contender and per turn of one turnOperator', async () => {
    const result = await benchSubscriptions(20);
    for (const suite of [result.sync, result.async]) {
      expect(TOOL_LOOP_CONTENDERS.map((c) => suite[c]).every(finitePositive)).toBe(true);
    }
    // Its source (from) and its work (of) subscribe once each per turn.
    expect(result.turnOperator).toMatchObject({ source: 1, work: 1 });
    // Counts do not depend on the machine: the target holds here as in the bench.
    expect(result.turnOperator.harness).toBeLessThanOrEqual(2);
    expect(result.turnOperatorInRun).toBeLessThanOrEqual(2);
    const rows = subscriptionsRows(result);
    expect(rows.filter((r) => r.met !== undefined).map((r) => r.name)).toEqual([
      'turnOperator per turn beyond its work, alone',
    ]);
    expect(rows.filter((r) => r.unit === 'calls/step')).toHaveLength(8);
  });

  it('concurrency memory measures pending runs and finds nothing left after unsubscribing', async () => {
    const result = await benchConcurrency(1_000, { rounds: 1, warmup: 0, gcRounds: 1 });
    expect(finitePositive(result.bytesPerRun)).toBe(true);
    // A bare subscription is ~400 B: with 1,000 of them in a busy jest worker the reading is noise.
    expect(Number.isFinite(result.baselineBytesPerSubscription)).toBe(true);
    expect(Number.isFinite(result.retainedBytes)).toBe(true);
    expect(result.liveStreamsWhilePending).toBe(1_000);
    expect(result.liveStreamsAfter).toBe(0);
    expect(result.baselineLoopStreamsAfter).toBe(0);
    expect(Number.isFinite(result.baselineLoopBytesPerRun)).toBe(true);
    expect(Number.isFinite(result.vsBaselineLoop)).toBe(true);
    expect(concurrencyRows(result).filter((r) => r.target?.includes('baseline loop'))).toHaveLength(1);
  }, 60_000);

  it('rate limits: runs the load with the limiter and with retries only, and reports both', async () => {
    const result = await benchLimits({ runs: 5, speed: 60, latencyMs: 100 });
    expect(result).toMatchObject({ runs: 5, runsWithHelpers: 2, speed: 60 });
    expect(result.tokensPerMinute).toBe(Math.ceil(result.workTokens / 2));
    for (const c of [result.limiter, result.retriesOnly]) {
      expect(c).toMatchObject({ runs: 5, subRuns: 6 });
      expect(c.requests).toBeGreaterThanOrEqual(16); // 5 × 2 calls and 6 sub-run calls at least
      expect([c.budgetUsedShare, c.minutes, c.realSeconds].every(finitePositive)).toBe(true);
    }
    const rows = limitsRows(result);
    expect(rows.filter((r) => r.met !== undefined).map((r) => r.target)).toEqual(['0', '≥ 90 %', '≤ 2 %']);
  }, 60_000);

  it('adapters return finite positive times for the raw SDKs, the adapters and runAgent', async () => {
    for (const result of [await benchOpenAIAdapter(50, quick), await benchAnthropicAdapter(50, quick)]) {
      expect([result.rawSdkMs, result.adapterMs, result.runAgentMs].every(finitePositive)).toBe(true);
      expect(adapterRows(result).filter((r) => r.met !== undefined)).toHaveLength(1);
    }
  }, 30_000);
});

describe('durable benchmark (throwaway PostgreSQL, workers in child processes; no timing assertions)', () => {
  const benchRoot = resolve(__dirname, '..');
  const workerScript = join(benchRoot, 'dist', 'durable-worker.js');
  const tiny = {
    steps: 3,
    inMemoryRuns: 2,
    runs: 1,
    warmup: 0,
    warmupMs: 0,
    stepsPerRun: 1,
    throughputRounds: 1,
  };

  beforeAll(() => {
    // The workers run the compiled entry: build it and the packages it imports (incremental).
    const tsc = createRequire(join(benchRoot, 'package.json')).resolve('typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-b', join(benchRoot, 'tsconfig.build.json')], { cwd: benchRoot });
  }, 240_000);

  it('measures the per-step cost against runAgent and the runs per second of 1 and 3 workers', async () => {
    const result = await benchDurable({ ...tiny, workerScript, runsAtOnce: 6 });
    const o = result.overhead;
    expect(
      [
        o.inMemoryMs,
        o.idempotentMs,
        o.atMostOnceMs,
        o.runLatencyMs,
        o.roundTripMs,
        o.insertMs,
        o.parallel.oneCallMs,
        o.parallel.fourCallsMs,
        o.ratios.idempotent,
      ].every(finitePositive),
    ).toBe(true);
    expect(Number.isFinite(o.addedMs.atMostOnce)).toBe(true);
    expect(o).toMatchObject({ steps: 3, rounds: 1 });
    const t = result.throughput;
    expect(t.figures.map((f) => f.workers)).toEqual([1, 3]);
    for (const f of t.figures) {
      expect(finitePositive(f.runsPerSecond)).toBe(true);
      // Every run of the round was executed by one of the workers started for it.
      expect(f.runsByWorker).toHaveLength(f.workers);
      expect(f.runsByWorker.reduce((a, b) => a + b, 0)).toBe(6);
    }
    const rows = durableRows(result);
    expect(rows.filter((r) => r.met !== undefined).map((r) => r.name)).toEqual([
      'added per step, idempotent tool (3 writes)',
      'added per step, at-most-once tool (4 writes)',
      'added per step vs 3 committed INSERTs, idempotent tool',
      'added per step vs 4 committed INSERTs, at-most-once tool',
      'step of 4 parallel 100 ms tool calls (toolConcurrency 4)',
      ...(t.cpus >= 4
        ? ['3 workers (1 rounds; runs per worker ' + t.figures[1]!.runsByWorker.join(' / ') + ')']
        : []),
    ]);
    expect(rows.find((r) => r.name.startsWith('3 workers'))?.baseline).toMatch(/^1 worker /);
  }, 240_000);

  it('fails with the exit error of a worker that cannot start, instead of waiting for it', async () => {
    await expect(
      benchDurable({ ...tiny, workerScript: join(benchRoot, 'dist', 'no-such-worker.js'), runsAtOnce: 2 }),
    ).rejects.toThrow(/Worker bench-worker-1 exited/);
  }, 240_000);

  it('checks 3 workers against 1 only on a machine with enough CPUs for them', () => {
    const result = (cpus: number): DurableResult => ({
      overhead: {
        steps: 20,
        inMemoryMs: 0.1,
        idempotentMs: 10,
        atMostOnceMs: 12,
        ratios: { idempotent: 100, atMostOnce: 120 },
        addedMs: { idempotent: 9.9, atMostOnce: 11.9 },
        runLatencyMs: 300,
        roundTripMs: 0.5,
        insertMs: 2,
        parallel: { oneCallMs: 110, fourCallsMs: 120 },
        rounds: 7,
      },
      throughput: {
        runs: 60,
        stepsPerRun: 2,
        perWorker: 8,
        cpus,
        figures: [
          { workers: 1, runsPerSecond: 30, msPerRound: 2000, rounds: 3, runsByWorker: [60] },
          { workers: 3, runsPerSecond: 40, msPerRound: 1500, rounds: 3, runsByWorker: [20, 20, 20] },
        ],
      },
    });
    const three = (cpus: number) => durableRows(result(cpus)).find((r) => r.name.startsWith('3 workers'));
    expect(three(2)).toMatchObject({ target: 'informative on 2 CPUs (≥ 1.5× from 4)' });
    expect(three(2)).not.toHaveProperty('met');
    expect(three(8)).toMatchObject({ target: "≥ 1.5× 1 worker's runs/s", met: false, ratio: 0.75 });
    const added = durableRows(result(2)).filter((r) => r.name.startsWith('added per step'));
    expect(added.map((r) => [r.met, r.baseline, Math.round((r.ratio ?? 0) * 1e4) / 1e4])).toEqual([
      [true, 'SELECT 1 round trip 0.50 ms', 19.8],
      [true, 'SELECT 1 round trip 0.50 ms', 23.8],
      [true, '3 × committed single-row INSERT 2.00 ms', 1.65],
      [true, '4 × committed single-row INSERT 2.00 ms', 1.4875],
    ]);
    const parallel = durableRows(result(2)).find((r) => r.name.startsWith('step of 4 parallel'));
    expect(parallel).toMatchObject({ met: true, baseline: 'step of one 100 ms call 110 ms' });
  });
});
