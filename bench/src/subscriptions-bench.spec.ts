import { map, Observable, of } from 'rxjs';
import { countSubscribes } from './subscriptions-bench.js';

describe('countSubscribes', () => {
  it('counts every subscribe() of the composition, including the operators’ inner ones', async () => {
    // The subscriber's subscribe to map's Observable, then map's to of(1).
    expect(
      await countSubscribes(() =>
        of(1)
          .pipe(map((x) => x + 1))
          .subscribe(),
      ),
    ).toBe(2);
    expect(await countSubscribes(() => undefined)).toBe(0);
  });

  it('waits for asynchronous work', async () => {
    const calls = await countSubscribes(async () => {
      await Promise.resolve();
      of(1).subscribe();
      await new Promise<void>((resolve) => setImmediate(resolve));
      of(2).subscribe();
    });
    expect(calls).toBe(2);
  });

  it('puts the prototype back, also when the work throws', async () => {
    const before = Object.getOwnPropertyDescriptor(Observable.prototype, 'subscribe');
    await expect(
      countSubscribes(() => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(Object.getOwnPropertyDescriptor(Observable.prototype, 'subscribe')).toEqual(before);
    expect(await countSubscribes(() => of(1).subscribe())).toBe(1);
  });
});
