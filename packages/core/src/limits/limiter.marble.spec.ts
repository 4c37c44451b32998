import { finalize, map, mergeMap, switchMap, timer, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { limiter, type Limiter, type LimiterDemand } from './limiter.js';
import type { LimiterLease } from './limiter-lease.js';
import { LimiterConfigError, RequestTooLargeError } from './limiter-errors.js';
import type { LimiterOptions } from './limiter-options.js';

// Marble tests of the limiter alone, in the RxJS spec shape: `e1` is when calls ask for
// admission, `expected` is when each is admitted (its letter) and, for calls that hold their
// lease, when it is released.

/** A call that asks at each value of `source`, holds its lease `holdMs` and then releases it. */
function calls(
  limits: Limiter,
  source: Observable<string>,
  demands: Record<string, LimiterDemand>,
  holdMs: Record<string, number> = {},
  onLease: (letter: string, lease: LimiterLease) => void = () => undefined,
): Observable<string> {
  return source.pipe(
    mergeMap((letter) =>
      limits.acquire(demands[letter]!).pipe(
        switchMap((lease) => {
          onLease(letter, lease);
          return timer(holdMs[letter] ?? 0).pipe(
            map(() => letter),
            finalize(() => lease.release(true)),
          );
        }),
      ),
    ),
  );
}

const quiet: Partial<LimiterOptions> = { followHeaders: false, onWarning: () => undefined };

describe('limiter (marbles)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('admits calls at once while the request budget lasts, then as it refills', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const limits = limiter({ ...quiet, requestsPerMinute: 2, scheduler: testScheduler });
      const e1 = cold('(abc)|');
      const e1subs = '^----!';
      const expected = '(ab) 29996ms (c|)';
      // a and b at once; c when one request has refilled (60 s / 2); completion after c's release.
      const demand = { inputTokens: 0 };
      expectObservable(calls(limits, e1, { a: demand, b: demand, c: demand })).toBe(expected);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('charges estimated input tokens and makes a call wait until its tokens have refilled', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const limits = limiter({ ...quiet, inputTokensPerMinute: 600, scheduler: testScheduler });
      const e1 = cold('a-b|');
      // a takes the whole minute's 600; b needs 300 = 30 s of refill (10 tokens a second).
      const expected = 'a 29999ms (b|)';
      expectObservable(calls(limits, e1, { a: { inputTokens: 600 }, b: { inputTokens: 300 } })).toBe(
        expected,
      );
    });
  });

  it('holds a concurrency slot from admission to release', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const limits = limiter({ ...quiet, concurrency: 1, scheduler: testScheduler });
      const e1 = cold('(ab)|');
      const expected = '10ms a 9ms (b|)';
      const d = { inputTokens: 1 };
      expectObservable(calls(limits, e1, { a: d, b: d }, { a: 10, b: 10 })).toBe(expected);
    });
  });

  it('admits interactive calls before background ones, whatever their order of arrival', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const limits = limiter({ ...quiet, concurrency: 1, scheduler: testScheduler });
      const e1 = cold('abc|');
      // a holds the slot; b (background) came before c (interactive): c goes first.
      const expected = '10ms a 9ms c 9ms (b|)';
      const demands: Record<string, LimiterDemand> = {
        a: { inputTokens: 1, priority: 'interactive' },
        b: { inputTokens: 1, priority: 'background' },
        c: { inputTokens: 1, priority: 'interactive' },
      };
      expectObservable(calls(limits, e1, demands, { a: 10, b: 10, c: 10 })).toBe(expected);
    });
  });

  it('takes keys in turn, so a run with many calls waiting does not hold back another', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const limits = limiter({ ...quiet, concurrency: 1, scheduler: testScheduler });
      const e1 = cold('(abcd)|');
      // a, b, c are run-1's and d is run-2's: once a is in, b and d take turns, so d goes
      // before c (first come, first served would make d last).
      const expected = '10ms a 9ms b 9ms d 9ms (c|)';
      const one = { inputTokens: 1, key: 'run-1' };
      const demands = { a: one, b: one, c: one, d: { inputTokens: 1, key: 'run-2' } };
      expectObservable(calls(limits, e1, demands, { a: 10, b: 10, c: 10, d: 10 })).toBe(expected);
    });
  });

  it('lets a waiting call leave the queue when it is unsubscribed', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const limits = limiter({ ...quiet, concurrency: 1, scheduler: testScheduler });
      const holder = calls(limits, cold('a|'), { a: { inputTokens: 1 } }, { a: 10 });
      const leaver = limits.acquire({ inputTokens: 1 }).pipe(map(() => 'b'));
      const unsub = '-^-!';
      const late = calls(limits, cold('--c|'), { c: { inputTokens: 1 } }, { c: 10 });
      expectObservable(holder).toBe('10ms (a|)');
      expectObservable(leaver, unsub).toBe('-');
      // b asked at 1 ms and left at 3 ms: c, which asked after it, gets the slot when a releases it.
      expectObservable(late).toBe('20ms (c|)');
    });
  });

  it('fails a call larger than the input budget at once, never waiting', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const limits = limiter({ ...quiet, inputTokensPerMinute: 1_000, scheduler: testScheduler });
      const e1 = cold('-a|');
      const expected = '-#';
      const error = new RequestTooLargeError(1_500, 1_000);
      expectObservable(calls(limits, e1, { a: { inputTokens: 1_500 } })).toBe(expected, undefined, error);
    });
  });

  it('pauses every key for a 429 retry-after, not only the call that got it', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const limits = limiter({ ...quiet, requestsPerMinute: 600, scheduler: testScheduler });
      const e1 = cold('a 9ms b|');
      const demands = { a: { inputTokens: 1, key: 'run-1' }, b: { inputTokens: 1, key: 'run-2' } };
      const onLease = (letter: string, lease: LimiterLease) => letter === 'a' && lease.rateLimited(5_000);
      // a got a 429 asking for 5 s at 0 ms: b, of another run, waits until 5,000 ms.
      const expected = 'a 4999ms (b|)';
      expectObservable(calls(limits, e1, demands, {}, onLease)).toBe(expected);
    });
  });

  it('corrects the input budget with the usage the call reports', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const limits = limiter({ ...quiet, inputTokensPerMinute: 600, scheduler: testScheduler });
      const e1 = cold('a-b|');
      // a was estimated at 100 but used 400: 200 are left and b (300) waits for 100 = 10 s.
      const onLease = (letter: string, lease: LimiterLease) =>
        letter === 'a' && lease.usage({ inputTokens: 400, outputTokens: 10 });
      const expected = 'a 9999ms (b|)';
      const demands = { a: { inputTokens: 100 }, b: { inputTokens: 300 } };
      expectObservable(calls(limits, e1, demands, {}, onLease)).toBe(expected);
    });
  });

  it('blocks new calls while the output budget is spent', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const limits = limiter({ ...quiet, outputTokensPerMinute: 60, scheduler: testScheduler });
      const e1 = cold('a-b|');
      // a reported 120 output tokens: 60 in debt; b waits until 1 token is back (61 s).
      const onLease = (letter: string, lease: LimiterLease) =>
        letter === 'a' && lease.usage({ outputTokens: 120 });
      const expected = 'a 60999ms (b|)';
      const d = { inputTokens: 1 };
      expectObservable(calls(limits, e1, { a: d, b: d }, {}, onLease)).toBe(expected);
    });
  });

  it('follows the headers: what the provider says is left, and a lower limit', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const limits = limiter({
        inputTokensPerMinute: 6_000,
        onWarning: () => undefined,
        scheduler: testScheduler,
      });
      const e1 = cold('a-b|');
      // The provider allows 600 a minute and has 0 left after a: b (300) waits 30 s.
      const onLease = (letter: string, lease: LimiterLease) =>
        letter === 'a' && lease.headers({ tokens: { limit: 600, remaining: 0 } });
      const expected = 'a 29999ms (b|)';
      const demands = { a: { inputTokens: 100 }, b: { inputTokens: 300 } };
      expectObservable(calls(limits, e1, demands, {}, onLease)).toBe(expected);
      testScheduler.flush();
      expect(limits.state$.value.inputTokens?.perMinute).toBe(600);
    });
  });

  it('counts calls admitted after a call that saw headers as not yet known to the provider', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const limits = limiter({ requestsPerMinute: 60, onWarning: () => undefined, scheduler: testScheduler });
      const e1 = cold('(ab)-c-d|');
      // a's headers (read once b is in) say 2 requests were left when a was counted. b was
      // admitted after a, so it is not in that figure: 1 is left. c takes it; d waits for the
      // refill (1 a second). Taking the 2 as they are would let d in at 7 ms.
      let first: LimiterLease | undefined;
      const onLease = (letter: string, lease: LimiterLease) => {
        if (letter === 'a') first = lease;
        if (letter === 'b') first?.headers({ requests: { remaining: 2 } });
      };
      const expected = '(ab)-c 994ms (d|)';
      const d = { inputTokens: 0 };
      expectObservable(calls(limits, e1, { a: d, b: d, c: d, d }, {}, onLease)).toBe(expected);
    });
  });

  it('leaves no timer behind once nothing waits', () => {
    let pending = -1;
    testScheduler.run(({ cold, expectObservable }) => {
      const limits = limiter({ ...quiet, requestsPerMinute: 1, scheduler: testScheduler });
      // b waits a minute for its request; it is unsubscribed at 2 ms.
      const waiting = calls(limits, cold('(ab)|'), { a: { inputTokens: 0 }, b: { inputTokens: 0 } });
      expectObservable(waiting, '--!').toBe('a');
      testScheduler.schedule(() => (pending = testScheduler.actions.length), 10);
    });
    expect(pending).toBe(0);
  });

  it('reports queued and in-flight calls and the budgets on state$', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const limits = limiter({
        ...quiet,
        concurrency: 1,
        inputTokensPerMinute: 600,
        scheduler: testScheduler,
      });
      calls(
        limits,
        cold('(ab)|'),
        { a: { inputTokens: 100 }, b: { inputTokens: 100 } },
        { a: 10, b: 10 },
      ).subscribe();
      const seen = limits.state$.pipe(map((s) => `${s.inFlight}/${s.queued.interactive}`));
      expectObservable(seen, '^ 30ms !').toBe('a 9ms b 9ms c', { a: '1/1', b: '1/0', c: '0/0' });
    });
  });
});

describe('limiter configuration', () => {
  it.each([
    [{ requestsPerMinute: 0 }, /requestsPerMinute must be a positive number, got 0/],
    [{ inputTokensPerMinute: -5 }, /inputTokensPerMinute must be a positive number, got -5/],
    [{ outputTokensPerMinute: Number.NaN }, /outputTokensPerMinute must be a positive number, got NaN/],
    [{ concurrency: 1.5 }, /concurrency must be a positive whole number, got 1.5/],
    [{}, /no figure/],
  ])('refuses %p with a LimiterConfigError', (options, message) => {
    expect(() => limiter(options)).toThrow(LimiterConfigError);
    expect(() => limiter(options)).toThrow(message);
  });

  it('refuses an estimate that is not a token count when a call asks', () => {
    const limits = limiter({ concurrency: 1, estimateTokens: () => Number.NaN });
    expect(() => limits.estimate({ messages: [] })).toThrow(/estimateTokens gave NaN input tokens/);
  });
});
