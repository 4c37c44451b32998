import { benchAnthropicAdapter, benchOpenAIAdapter } from './adapter-bench.js';
import { benchConcurrency } from './concurrency-bench.js';
import { median, medianOf } from './measure.js';
import { formatTable, missedTargets } from './report.js';
import { backToBack, medianRatio } from './measure.js';
import { benchAsyncStreaming, benchStreaming } from './streaming-bench.js';
import { adapterRows } from './adapter-rows.js';
import { concurrencyRows } from './concurrency-rows.js';
import { asyncStreamingRows, streamingRows, toolLoopRows } from './targets.js';
import { benchGrowth, benchToolLoop, inRunGrowth, TOOL_LOOP_CONTENDERS } from './tool-loop-bench.js';

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

  it('streaming (asynchronous source) returns the baseline loop, runAgent and state$ rates and their ratios', async () => {
    const result = await benchAsyncStreaming(200, quick);
    for (const key of [
      'source',
      'baselineLoop',
      'runAgent',
      'stateFold',
      'runAgentVsBaseline',
      'stateFoldVsBaseline',
    ] as const) {
      expect(finitePositive(result[key])).toBe(true);
    }
    const rows = asyncStreamingRows(result);
    expect(rows.filter((r) => r.met !== undefined).map((r) => r.target)).toEqual([
      '≥ 0.8× baseline rate (ratio ≤ 1.25×)',
      '≥ 0.7× baseline rate (ratio ≤ 1.43×)',
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

  it('adapters return finite positive times for the raw SDKs, the adapters and runAgent', async () => {
    for (const result of [await benchOpenAIAdapter(50, quick), await benchAnthropicAdapter(50, quick)]) {
      expect([result.rawSdkMs, result.adapterMs, result.runAgentMs].every(finitePositive)).toBe(true);
      expect(adapterRows(result).filter((r) => r.met !== undefined)).toHaveLength(1);
    }
  }, 30_000);
});

describe('measurement helpers', () => {
  it('median takes the middle value, or the mean of the two middle ones', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(() => median([])).toThrow('measure at least one run');
  });

  it('backToBack rotates the contenders, stops at the budget, and ratios are taken per round', async () => {
    const order: string[] = [];
    let a = 0;
    const rounds = await backToBack(
      {
        a: () => (order.push('a'), ++a),
        b: () => (order.push('b'), 2 * a),
      },
      { runs: 3, warmup: 1, warmupMs: 0 },
    );
    expect(order).toEqual(['a', 'b', 'b', 'a', 'a', 'b', 'b', 'a']);
    expect(rounds).toHaveLength(3);
    expect(medianRatio(rounds, 'b', 'a')).toBeGreaterThan(0);
    const hurried = await backToBack({ a: () => 1 }, { runs: 5, warmup: 0, warmupMs: 0, budgetMs: 0 });
    expect(hurried).toHaveLength(1);
  });

  it('medianOf warms up, then returns the median of the measured runs', async () => {
    let call = 0;
    const figures = [100, 100, 7, 1, 9, 3, 5];
    const result = await medianOf(() => figures[call++] as number, { runs: 5, warmup: 2, warmupMs: 0 });
    expect(call).toBe(7);
    expect(result).toBe(5);
  });

  it('says MISSED in the table and lists every missed target', () => {
    const rows = [
      { section: 'S', name: 'fast', value: 5e6, unit: 'deltas/s', target: '≥ 4 M/s', met: true },
      { section: 'S', name: 'slow', value: 1e6, unit: 'deltas/s', target: '≥ 4 M/s', met: false },
    ];
    const table = formatTable(rows);
    expect(table).toContain('MET');
    expect(table).toMatch(/slow .*1\.00 M deltas\/s.*MISSED/);
    expect(missedTargets(rows)).toEqual(['MISSED: S / slow: 1.00 M deltas/s (target ≥ 4 M/s)']);
  });
});
