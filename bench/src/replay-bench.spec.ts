import { benchReplay } from './replay-bench.js';
import { replayRows } from './replay-rows.js';

describe('benchReplay', () => {
  it('measures a replay beside its original and a fork start, on a small run', async () => {
    const result = await benchReplay(40);
    expect(result.events).toBeGreaterThan(40 * 5);
    expect(result.replayEventsPerSecond).toBeGreaterThan(0);
    expect(result.originalEventsPerSecond).toBeGreaterThan(0);
    expect(result.forkStartMs).toBeGreaterThanOrEqual(result.forkOnlyMs * 0.5);
    const rows = replayRows([result]);
    expect(rows.map((r) => r.name)).toEqual([
      'replayRun from the log lines (reading included)',
      'fork start at step 20: read the log, forkRun, first model request',
    ]);
    expect(rows[1]).toMatchObject({ target: '≤ 50 ms' });
  });
});
