import { catchError, map, of, throwError, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { aTurn } from '@rxagent/testing';
import type { AgentEvent } from '../events/agent-event.js';
import type { Turn } from '../turn/turn.js';
import { isTurn, type LoopItem } from '../turn/loop-item.js';
import { userMessage } from '../messages/message-helpers.js';
import { turnOperator } from './turn-operator.js';

// Marble tests of turnOperator alone, in the RxJS spec shape: `e1` is the pipeline's one-turn
// source, `e1subs` its subscriptions, `expected` the output. Turns hold functions, so they are
// compared through a summary.

const warning: AgentEvent = { type: 'warning', message: 'from upstream' };

const summary = (item: LoopItem) =>
  isTurn(item) ? { step: item.step, next: item.next.map((m) => m.content) } : item;
const named = (error: unknown) => ({
  name: (error as Error).name,
  message: (error as Error).message,
});
const summarized = (source: Observable<LoopItem>) =>
  source.pipe(
    map(summary),
    catchError((error: unknown) => throwError(() => named(error))),
  );

describe('turnOperator (marbles)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('does the work when the turn arrives and emits what the work emits', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const turn = aTurn();
      const e1 = cold('-t|', { t: turn });
      const e1subs = '^-!';
      const expected = '-n|';
      const op = turnOperator('nudge', (t) => of(t.withNext([userMessage('go on')])));

      expectObservable(summarized(e1.pipe(op))).toBe(expected, { n: { step: 1, next: ['go on'] } });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('passes events through unchanged (the same objects, in place)', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const turn = aTurn();
      const e1 = cold('a-t-b|', { a: warning, t: turn, b: warning });
      const e1subs = '^----!';
      const expected = 'a-t-b|';
      const op = turnOperator('same', (t) => of(t));

      expectObservable(
        e1.pipe(
          op,
          map((item) => (item === warning ? 'same event' : item === turn ? 'same turn' : item)),
        ),
      ).toBe(expected, { a: 'same event', t: 'same turn', b: 'same event' });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('completes after the work, not with the source', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const turn = aTurn();
      const e1 = cold('-t|', { t: turn });
      const e1subs = '^-!';
      const work = cold('---w|', { w: turn });
      const workSubs = '-^---!';
      const expected = '----w|';

      expectObservable(e1.pipe(turnOperator('slow', () => work))).toBe(expected, { w: turn });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
      expectSubscriptions(work.subscriptions).toBe(workSubs);
    });
  });

  it('fails with PipelineError on a second turn', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const turn = aTurn();
      const e1 = cold('-t-u|', { t: turn, u: aTurn() });
      const e1subs = '^--!';
      const expected = '-t-#';

      expectObservable(summarized(e1.pipe(turnOperator('once', (t) => of(t))))).toBe(
        expected,
        { t: { step: 1, next: [] } },
        { name: 'PipelineError', message: expect.stringContaining('once() received a second turn') },
      );
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('fails with PipelineError on a copy of the turn', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const copy = { ...aTurn() } as unknown as Turn;
      const e1 = cold('-t|', { t: copy });
      const e1subs = '^!';
      const expected = '-#';

      expectObservable(summarized(e1.pipe(turnOperator('strict', (t) => of(t))))).toBe(expected, undefined, {
        name: 'PipelineError',
        message: expect.stringContaining('strict() received a copy of the turn'),
      });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('fails with PipelineError on something that is neither an event nor a turn', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('-x|', { x: null as unknown as LoopItem });
      const e1subs = '^!';
      const expected = '-#';

      expectObservable(summarized(e1.pipe(turnOperator('strict', (t) => of(t))))).toBe(expected, undefined, {
        name: 'PipelineError',
        message: expect.stringContaining('strict() received null'),
      });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('tears the work down when unsubscribed mid-work', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const turn = aTurn();
      const e1 = cold('-t|', { t: turn });
      const e1subs = '^-!';
      const work = cold('----w|', { w: turn });
      const workSubs = '-^-!';
      const unsub = '---!';
      const expected = '---';

      expectObservable(e1.pipe(turnOperator('slow', () => work)), unsub).toBe(expected);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
      expectSubscriptions(work.subscriptions).toBe(workSubs);
    });
  });

  it('tears the source and the work down when unsubscribed before the source completes', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const turn = aTurn();
      const e1 = cold('-t----|', { t: turn });
      const e1subs = '^--!';
      const work = cold('----w|', { w: turn });
      const workSubs = '-^-!';
      const unsub = '---!';

      expectObservable(e1.pipe(turnOperator('slow', () => work)), unsub).toBe('---');
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
      expectSubscriptions(work.subscriptions).toBe(workSubs);
    });
  });

  it('fails when the work fails, and when the source fails', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const turn = aTurn();
      const boom = new Error('boom');
      const failingWork = cold<LoopItem>('--#', undefined, boom);
      expectObservable(cold('-t|', { t: turn }).pipe(turnOperator('w', () => failingWork))).toBe(
        '---#',
        undefined,
        boom,
      );
      expectObservable(cold<LoopItem>('-#', undefined, boom).pipe(turnOperator('w', (t) => of(t)))).toBe(
        '-#',
        undefined,
        boom,
      );
    });
  });

  it('passes an empty source through: no turn, no work, completes', () => {
    let calls = 0;
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold<LoopItem>('--|');
      const e1subs = '^-!';

      expectObservable(
        e1.pipe(
          turnOperator('never', (t) => {
            calls++;
            return of(t);
          }),
        ),
      ).toBe('--|');
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
    expect(calls).toBe(0);
  });
});
