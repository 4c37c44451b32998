import { benchDashboardPost } from './dashboard-bench.js';
import { benchCodec, benchLongLine, benchWireBytes } from './wire-bench.js';
import { codecRows, dashboardPostRows, longLineRows, wireBytesRows } from './wire-rows.js';

const finitePositive = (value: number) => Number.isFinite(value) && value > 0;

describe('wire benchmark smoke test (tiny sizes, no timing assertions)', () => {
  it('measures every wire for an answer: linear ones within the target, the snapshots before far past it', async () => {
    const results = await benchWireBytes(4_000);
    expect(results.map((r) => r.wire)).toEqual(['snapshots (before)', 'SSE', 'durable log', '--json']);
    for (const r of results) {
      expect(r.events).toBe(1_008); // 1,000 deltas of 4 characters, and the run's other events
      expect(r.bytes).toBeGreaterThan(r.answerBytes);
    }
    const rows = wireBytesRows(results);
    expect(rows.filter((r) => r.met !== undefined).every((r) => r.met)).toBe(true);
    expect(rows[0]?.ratio).toBeGreaterThan(100); // quadratic: each delta carried the partial message
  });

  it('measures encode and decode beside JSON, and fromSSE on a long line', async () => {
    const codec = await benchCodec(400, { runs: 1, warmup: 0, warmupMs: 0 });
    expect(
      [codec.encodePerSecond, codec.stringifyPerSecond, codec.decodePerSecond, codec.parsePerSecond].every(
        finitePositive,
      ),
    ).toBe(true);
    expect(codecRows(codec)).toHaveLength(2);
    const line = await benchLongLine(1024 * 1024);
    expect(line.outcome).toBe('SSEConnectionError'); // a stream cut mid-line, not a hang
    expect(longLineRows(line)[0]?.met).toBe(true);
  });
});

describe('dashboard POST latency smoke test (no timing assertions)', () => {
  it('times POST /runs with no client and with slow /events clients that never read', async () => {
    const r = await benchDashboardPost({
      slowClients: 3,
      backgroundRuns: 1,
      posts: 2,
      runs: 1,
      warmup: 0,
      warmupMs: 0,
    });
    expect([r.idleMs, r.loadedMs, r.ratio].every(finitePositive)).toBe(true);
    expect(dashboardPostRows(r)[0]?.target).toBe('≤ 1.5×');
  }, 30_000);
});
