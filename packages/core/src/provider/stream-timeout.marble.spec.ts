import type { SchedulerLike } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { streamTimeout } from './stream-timeout.js';

// Marble tests of streamTimeout in the RxJS spec shape: the same outcomes as
// `timeout({ first, each, with })` for the same marbles.

describe('streamTimeout (marbles)', () => {
  let testScheduler: TestScheduler;
  const timedOut = (kind: 'first' | 'each') => `timeout:${kind}`;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('mirrors a source whose values come within the limits', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('  -a--b--c|');
      const e1subs = '   ^-------!';
      const expected = ' -a--b--c|';
      expectObservable(e1.pipe(streamTimeout({ each: 3, with: timedOut }))).toBe(expected);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('fails with the `each` error after `each` of silence between two values, unsubscribing the source', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('  -a--b------c|');
      const e1subs = '   ^-------!   ';
      const expected = ' -a--b---#   ';
      expectObservable(e1.pipe(streamTimeout({ each: 4, with: timedOut }))).toBe(
        expected,
        undefined,
        'timeout:each',
      );
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('applies `each` to the first value when `first` is not given', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('  -------a|');
      const e1subs = '   ^---!    ';
      const expected = ' ----#    ';
      expectObservable(e1.pipe(streamTimeout({ each: 4, with: timedOut }))).toBe(
        expected,
        undefined,
        'timeout:each',
      );
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('fails with the `first` error when the first value is later than `first`', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('  -------a|');
      const e1subs = '   ^-----!  ';
      const expected = ' ------#  ';
      expectObservable(e1.pipe(streamTimeout({ first: 6, each: 2, with: timedOut }))).toBe(
        expected,
        undefined,
        'timeout:first',
      );
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('counts `each` from the first value once it came, however long `first` is', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('  --a--------b|');
      const e1subs = '   ^----!       ';
      const expected = ' --a--#       ';
      expectObservable(e1.pipe(streamTimeout({ first: 100, each: 3, with: timedOut }))).toBe(
        expected,
        { a: 'a' },
        'timeout:each',
      );
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('has no limit after the first value when only `first` is given', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('  -a---------b|');
      const e1subs = '   ^-----------!';
      const expected = ' -a---------b|';
      expectObservable(e1.pipe(streamTimeout({ first: 2, with: timedOut }))).toBe(expected);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('has no limit at all with neither limit (or a zero one)', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('  ----------a|');
      const e1subs = '   ^----------!';
      const expected = ' ----------a|';
      expectObservable(e1.pipe(streamTimeout({ each: 0, with: timedOut }))).toBe(expected);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('passes the source error through and leaves no timer', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('  -a-#');
      const e1subs = '   ^--!';
      const expected = ' -a-#';
      expectObservable(e1.pipe(streamTimeout({ each: 5, with: timedOut }))).toBe(expected);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('stops its timer on early unsubscribe', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('  -a------b|');
      const unsub = '    ---!      ';
      const e1subs = '   ^--!      ';
      const expected = ' -a-       ';
      expectObservable(e1.pipe(streamTimeout({ each: 4, with: timedOut })), unsub).toBe(expected);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('schedules one check per silent period, not one per value', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const values = 'abcdefghij';
      const e1 = cold(`${values}|`);
      let scheduled = 0;
      const counting: SchedulerLike = {
        now: () => testScheduler.now(),
        schedule: (...args: Parameters<SchedulerLike['schedule']>) => {
          scheduled++;
          return testScheduler.schedule(...args);
        },
      };
      expectObservable(e1.pipe(streamTimeout({ each: 50, with: timedOut, scheduler: counting }))).toBe(
        `${values}|`,
      );
      testScheduler.flush();
      expect(scheduled).toBe(2); // the wait for the first value, then one `each` window
    });
  });
});
