import { asapScheduler, asyncScheduler, from, map, observeOn } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';

it('pure rxjs', () => {
  const s = new TestScheduler((a, e) => expect(a).toEqual(e));
  const log: string[] = [];
  s.run(({ flush }) => {
    from([1, 2, 3, 4])
      .pipe(
        observeOn(asapScheduler),
        observeOn(asyncScheduler),
        map((x) => {
          if (x === 2) throw new Error('boom');
          return x;
        }),
      )
      .subscribe({ next: (x) => log.push(String(x)), error: (e: Error) => log.push(e.message) });
    flush();
  });
  expect(log).toEqual(['1', 'boom']);
});
