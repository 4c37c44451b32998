import { benchAnthropicAdapter, benchOpenAIAdapter } from './adapter-bench.js';
import { benchConcurrency } from './concurrency-bench.js';
import { median, medianOf } from './measure.js';
import { formatTable, missedTargets } from './report.js';
import { benchStreaming } from './streaming-bench.js';
import { adapterRows } from './adapter-rows.js';
import { concurrencyRows } from './concurrency-rows.js';
import { streamingRows, toolLoopRows } from './targets.js';
import { benchToolLoop, perStepGrowth } from './tool-loop-bench.js';

const quick = { runs: 2, warmup: 1, warmupMs: 0 };
const finitePositive = (value: number) => Number.isFinite(value) && value > 0;

describe('benchmark smoke test (tiny sizes, no timing assertions)', () => {
  it('streaming returns finite positive rates for runAgent, state$ and both baselines', async () => {
    const result = await benchStreaming(200, quick);
    for (const key of ['runAgent', 'stateFold', 'subject', 'asyncGenerator'] as const) {
      expect(finitePositive(result[key])).toBe(true);
    }
    expect(streamingRows(result).filter((r) => r.met !== undefined)).toHaveLength(2);
  });

  it('tool loop returns finite positive per-step costs for runAgent, withState and the hand loop', async () => {
    const short = await benchToolLoop(5, quick);
    const long = await benchToolLoop(20, quick);
    for (const r of [short, long]) {
      expect([r.runAgent, r.withState, r.handLoop].every(finitePositive)).toBe(true);
    }
    const growth = perStepGrowth(20, 5, { runs: 1, warmup: 0 });
    expect(finitePositive(growth)).toBe(true);
    const rows = toolLoopRows([short, long], growth);
    expect(rows.map((r) => r.name)).toContain(
      'runAgent per-step growth, S = 20 / S = 5 (back to back, same total steps)',
    );
  });

  it('concurrency memory measures pending runs and finds nothing left after unsubscribing', async () => {
    const result = await benchConcurrency(1_000, { rounds: 1, warmup: 0, gcRounds: 1 });
    expect(finitePositive(result.bytesPerRun)).toBe(true);
    // A bare subscription is ~400 B: with 1,000 of them in a busy jest worker the reading is noise.
    expect(Number.isFinite(result.baselineBytesPerSubscription)).toBe(true);
    expect(Number.isFinite(result.retainedBytes)).toBe(true);
    expect(result.liveStreamsWhilePending).toBe(1_000);
    expect(result.liveStreamsAfter).toBe(0);
    expect(concurrencyRows(result)).toHaveLength(5);
  }, 30_000);

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
