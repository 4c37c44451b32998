import { benchForkStart } from './fork-start-bench.js';
import { benchReplay, recordToolLoop } from './replay-bench.js';
import { FORK_GROWTH_TARGET, forkStartRows, replayRows } from './replay-rows.js';

describe('the replay benchmark', () => {
  it('measures a replay beside its original, on a small run', async () => {
    const result = await benchReplay(40, recordToolLoop(40));
    expect(result.events).toBeGreaterThan(40 * 5);
    expect(result.replayEventsPerSecond).toBeGreaterThan(0);
    expect(result.originalEventsPerSecond).toBeGreaterThan(0);
    expect(replayRows([result]).map((r) => r.name)).toEqual([
      'replayRun from the log lines (reading included)',
    ]);
  });

  it('measures fork starts of growing logs in the same rounds, with the growth per doubling', async () => {
    const logs = [20, 40, 80].map((steps) => ({ steps, lines: recordToolLoop(steps) }));
    const result = await benchForkStart(logs, { rounds: 3, warmup: 1 });
    expect(result.figures.map((f) => f.steps)).toEqual([20, 40, 80]);
    for (const f of result.figures) expect(f.forkStartMs).toBeGreaterThanOrEqual(f.forkOnlyMs);
    expect(result.perDoubling).toHaveLength(2);
    const rows = forkStartRows(result);
    expect(rows.map((r) => r.name)).toEqual([
      '20-step log, step 10: read the log, forkRun, first model request',
      '40-step log, step 20: read the log, forkRun, first model request',
      '80-step log, step 40: read the log, forkRun, first model request',
    ]);
    expect(rows[0]).toMatchObject({ target: '≤ 50 ms' });
    expect(rows[2]).toMatchObject({
      target: `linear: ≤ ${FORK_GROWTH_TARGET}× per doubling`,
      ratio: result.perDoubling[1],
    });
  });
});
