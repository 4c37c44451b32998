import { withOutcome } from './outcome-record.js';

describe('withOutcome', () => {
  it('adds an outcome without changing the record it came from, each record reading its own prefix', () => {
    const a = withOutcome({}, 'c1', 'executed');
    const b = withOutcome(a, 'c2', 'failed');
    const c = withOutcome(b, 'c3', 'denied');
    expect(a).toEqual({ c1: 'executed' });
    expect(b).toEqual({ c1: 'executed', c2: 'failed' });
    expect({ ...c }).toEqual({ c1: 'executed', c2: 'failed', c3: 'denied' });
    expect(JSON.parse(JSON.stringify(b))).toEqual({ c1: 'executed', c2: 'failed' });
    expect(Object.keys(c)).toEqual(['c1', 'c2', 'c3']);
    expect('c3' in b).toBe(false);
    expect(b['c3']).toBeUndefined();
  });

  it('copies once when an older record is added to (a fork), leaving the newer ones as they were', () => {
    const a = withOutcome({}, 'c1', 'executed');
    const b = withOutcome(a, 'c2', 'failed');
    const fork = withOutcome(a, 'x', 'rejected');
    expect(fork).toEqual({ c1: 'executed', x: 'rejected' });
    expect(b).toEqual({ c1: 'executed', c2: 'failed' });
    // The same id again: its latest outcome, once.
    expect(withOutcome(b, 'c1', 'cancelled')).toEqual({ c2: 'failed', c1: 'cancelled' });
    // A plain record (a state read back from JSON) goes on from its entries.
    expect(withOutcome({ p: 'executed' }, 'q', 'skipped')).toEqual({ p: 'executed', q: 'skipped' });
  });

  it('refuses writes', () => {
    const a = withOutcome({}, 'c1', 'executed') as Record<string, string>;
    expect(() => {
      'use strict';
      a['c2'] = 'failed';
    }).toThrow(TypeError);
    expect(a).toEqual({ c1: 'executed' });
  });
});
