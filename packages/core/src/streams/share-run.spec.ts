import { map, Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { AgentEvent } from '../events/agent-event.js';
import { RunReleasedError } from '../results/result-errors.js';
import { shareRun, type SequencedEvent } from './share-run.js';

const step = (n: number): AgentEvent => ({ type: 'turn-start', step: n });
const steps = (entries: SequencedEvent[]) =>
  entries.map((e) => [e.id, e.event.type === 'turn-start' ? e.event.step : e.event.type]);

function scheduler() {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe('shareRun', () => {
  it('subscribes the run once, at the first join, however many watch', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('-a-b-c|', { a: step(1), b: step(2), c: step(3) });
      const e1subs = '^-----!';
      const hub = shareRun(e1);
      const values = { a: step(1), b: step(2), c: step(3) };
      expectObservable(hub.events$).toBe('-a-b-c|', values);
      expectObservable(hub.events$).toBe('-a-b-c|', values);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('gives a late joiner what it missed first, then the live events', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const hub = shareRun(cold('-a-b----c|', { a: step(1), b: step(2), c: step(3) }));
      const values = { a: step(1), b: step(2), c: step(3) };
      expectObservable(hub.events$).toBe('-a-b----c|', values);
      expectObservable(hub.events$, '----^').toBe('----(ab)c|', values);
    });
  });

  it('resumes exactly after Last-Event-ID', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const hub = shareRun(cold('-a-b-c----d|', { a: step(1), b: step(2), c: step(3), d: step(4) }));
      const first = hub.join().pipe(map((e) => e.id));
      expectObservable(first, '^--!').toBe('-1-', { 1: 1 });
      expectObservable(hub.join('2').pipe(map((e) => e.id)), '------^').toBe('------3---4|', { 3: 3, 4: 4 });
      expectObservable(hub.join(1).pipe(map((e) => e.id)), '------^').toBe('------(23)4|', {
        2: 2,
        3: 3,
        4: 4,
      });
    });
  });

  it('keeps the run going while no one watches (a client between reconnects)', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('-a-b---c---|', { a: step(1), b: step(2), c: step(3) });
      const hub = shareRun(e1);
      expectObservable(hub.events$, '^-!').toBe('-a', { a: step(1) });
      expectObservable(hub.join('1').pipe(map((e) => e.id)), '-----^').toBe('-----2-3---|', { 2: 2, 3: 3 });
      expectSubscriptions(e1.subscriptions).toBe('^----------!');
    });
  });

  it('keeps only the latest `replay` events and says how many a watcher missed', () => {
    const source = new Subject<AgentEvent>();
    const hub = shareRun(source, { replay: 2 });
    const early: SequencedEvent[] = [];
    hub.join().subscribe((e) => early.push(e));
    for (let n = 1; n <= 5; n++) source.next(step(n));
    const late: SequencedEvent[] = [];
    hub.join('1').subscribe((e) => late.push(e));
    expect(steps(early)).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
      [5, 5],
    ]);
    expect(steps(late)).toEqual([
      [3, 'warning'],
      [4, 4],
      [5, 5],
    ]);
    expect(late[0]?.event).toMatchObject({ message: expect.stringContaining('Missed 2 event(s)') });
  });

  it('releases the buffer when the run has ended and the last watcher left', () => {
    const source = new Subject<AgentEvent>();
    const hub = shareRun(source);
    const a = hub.join().subscribe();
    hub.join().subscribe();
    source.next(step(1));
    expect(hub.watchers).toBe(2);
    a.unsubscribe();
    expect(hub.released).toBe(false);
    source.complete();
    // The other watcher's stream ended with the run: it left too.
    expect(hub.watchers).toBe(0);
    expect(hub.released).toBe(true);
    let error: unknown;
    hub.join().subscribe({ error: (e: unknown) => (error = e) });
    expect(RunReleasedError.isInstance(error)).toBe(true);
  });

  it('keeps the ended run for lingerMs, so a client joining then gets all of it', () => {
    scheduler().run(({ cold, expectObservable, flush }) => {
      const values = { a: step(1), b: step(2) };
      const hub = shareRun(cold('-a-b|', values), { lingerMs: 10 });
      expectObservable(hub.events$).toBe('-a-b|', values);
      expectObservable(hub.events$, '--------^').toBe('--------(ab|)', values);
      let keptAt13: boolean | undefined;
      cold('-------------x').subscribe(() => (keptAt13 = !hub.released));
      flush();
      // Ended at 4, last watcher left at 8: kept until 18, then released.
      expect(keptAt13).toBe(true);
      expect(hub.released).toBe(true);
    });
  });

  it('passes the run error to every watcher, late ones too (while it lingers)', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const hub = shareRun(cold('-a#', { a: step(1) }), { lingerMs: 10 });
      expectObservable(hub.events$).toBe('-a#', { a: step(1) });
      expectObservable(hub.events$, '-----^').toBe('-----(a#)', { a: step(1) });
    });
  });

  it('stop() cancels the run and completes the watchers', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions, flush }) => {
      const e1 = cold('-a-b-c|', { a: step(1), b: step(2), c: step(3) });
      const hub = shareRun(e1);
      expectObservable(hub.events$).toBe('-a-|', { a: step(1) });
      cold('---x').subscribe(() => hub.stop());
      flush();
      expectSubscriptions(e1.subscriptions).toBe('^--!');
      expect(hub.released).toBe(true);
    });
  });
});
