import { createTestScheduler } from '@rxagent/testing';
import { IdleTimeout } from './idle-timeout.js';

describe('IdleTimeout', () => {
  it('fires once after timeoutMs of silence, counting from the last touch', () => {
    const scheduler = createTestScheduler();
    const fired: number[] = [];
    scheduler.run(({ flush }) => {
      const idle = new IdleTimeout(100, scheduler, () => fired.push(scheduler.now()));
      idle.start();
      scheduler.schedule(() => idle.touch(), 60);
      scheduler.schedule(() => idle.touch(), 150);
      flush();
    });
    expect(fired).toEqual([250]);
  });

  it('never fires once stopped', () => {
    const scheduler = createTestScheduler();
    const fired: number[] = [];
    scheduler.run(({ flush }) => {
      const idle = new IdleTimeout(100, scheduler, () => fired.push(scheduler.now()));
      idle.start();
      scheduler.schedule(() => idle.stop(), 50);
      flush();
    });
    expect(fired).toEqual([]);
  });

  it.each([0, -1, Infinity])('is disabled by a timeout of %p', (timeoutMs) => {
    const scheduler = createTestScheduler();
    const fired: number[] = [];
    scheduler.run(({ flush }) => {
      new IdleTimeout(timeoutMs, scheduler, () => fired.push(scheduler.now())).start();
      flush();
    });
    expect(fired).toEqual([]);
  });
});
