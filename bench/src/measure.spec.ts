import { backToBack, median, medianOf, medianRatio } from './measure.js';
import { formatTable, missedTargets } from './report.js';

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
