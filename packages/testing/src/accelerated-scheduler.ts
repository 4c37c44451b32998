import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';

/**
 * A scheduler whose clock runs `speed` times faster than real time: `now()` moves `speed` ms
 * per real ms and a timer of `delay` ms fires after `delay / speed` real ms. For tests and
 * benchmarks with real I/O (a local HTTP server) where virtual time cannot work but a minute
 * of rate limits should pass in a second: give the same scheduler to the runs, the limiter,
 * the adapters and `startRateLimitedProvider`'s clock. An action runs once the clock has reached
 * its time, never early.
 *
 * @example
 * const clock = acceleratedScheduler(60); // a minute a second
 * const provider = await startRateLimitedProvider({ inputTokensPerMinute: 10_000, clock });
 * runAgent({ model, prompt: 'Hi', scheduler: clock }).subscribe();
 */
export function acceleratedScheduler(speed: number, start: number = Date.now()): SchedulerLike {
  if (!(speed > 0) || !Number.isFinite(speed)) {
    throw new RangeError(`acceleratedScheduler: speed must be a positive number, got ${speed}.`);
  }
  const origin = performance.now();
  const now = () => start + (performance.now() - origin) * speed;
  return {
    now,
    schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay = 0, state?: T): Subscription {
      let handle: ReturnType<typeof setTimeout> | undefined;
      let rescheduled = false;
      const action = new Subscription(() => clearTimeout(handle)) as SchedulerAction<T>;
      action.schedule = (next?: T, nextDelay = 0) => {
        if (action.closed) return action;
        clearTimeout(handle);
        rescheduled = true;
        const due = now() + Math.max(0, nextDelay);
        const fire = () => {
          // Node's timers may fire up to a millisecond early: wait until the clock is due.
          if (now() < due) {
            handle = setTimeout(fire, (due - now()) / speed);
            return;
          }
          rescheduled = false;
          try {
            work.call(action, next);
          } catch (error) {
            action.unsubscribe();
            throw error;
          }
          // As RxJS's own actions: one that did not schedule itself again is done.
          if (!rescheduled) action.unsubscribe();
        };
        handle = setTimeout(fire, Math.max(0, nextDelay) / speed);
        return action;
      };
      return action.schedule(state, delay);
    },
  };
}
