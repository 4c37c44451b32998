import { TestScheduler } from 'rxjs/testing';
import { startIdleTimer } from './idle-timer.js';

describe('startIdleTimer', () => {
  const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

  it('fires once after the silence, measured from the last touch', () => {
    const test = scheduler();
    test.run(({ flush }) => {
      const fired: number[] = [];
      const timer = startIdleTimer(test, 100, () => fired.push(test.now()));
      test.schedule(() => timer.touch(), 60);
      test.schedule(() => timer.touch(), 150);
      flush();
      expect(fired).toEqual([250]);
    });
  });

  it('does not fire once stopped', () => {
    const test = scheduler();
    test.run(({ flush }) => {
      const onIdle = jest.fn();
      const timer = startIdleTimer(test, 100, onIdle);
      test.schedule(() => timer.stop(), 50);
      flush();
      expect(onIdle).not.toHaveBeenCalled();
    });
  });

  it('is disabled by 0', () => {
    const test = scheduler();
    test.run(({ flush }) => {
      const onIdle = jest.fn();
      startIdleTimer(test, 0, onIdle);
      flush();
      expect(onIdle).not.toHaveBeenCalled();
    });
  });
});
