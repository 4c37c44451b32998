import { firstValueFrom, interval, lastValueFrom, take, timer, toArray } from 'rxjs';
import { acceleratedScheduler } from './accelerated-scheduler.js';

describe('acceleratedScheduler', () => {
  it('fires a timer once its delay has passed on the fast clock', async () => {
    const clock = acceleratedScheduler(6_000); // a minute in 10 ms
    const start = clock.now();
    await firstValueFrom(timer(60_000, clock));
    expect(clock.now() - start).toBeGreaterThanOrEqual(60_000);
  });

  it('runs actions that schedule themselves again (interval)', async () => {
    const clock = acceleratedScheduler(1_000);
    const start = clock.now();
    const values = await lastValueFrom(interval(1_000, clock).pipe(take(3), toArray()));
    expect(values).toEqual([0, 1, 2]);
    expect(clock.now() - start).toBeGreaterThanOrEqual(3_000);
  });

  it('never runs a cancelled action', async () => {
    const clock = acceleratedScheduler(1_000);
    let ran = false;
    clock.schedule(() => (ran = true), 1_000).unsubscribe();
    await firstValueFrom(timer(5_000, clock));
    expect(ran).toBe(false);
  });

  it('refuses a speed that is not a positive number', () => {
    expect(() => acceleratedScheduler(0)).toThrow(RangeError);
    expect(() => acceleratedScheduler(Number.NaN)).toThrow(/positive number/);
  });
});
