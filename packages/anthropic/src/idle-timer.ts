import type { SchedulerLike, Subscription } from 'rxjs';

/**
 * A running inactivity timer.
 *
 * @example
 * const timer: IdleTimer = startIdleTimer(asyncScheduler, 1000, onIdle);
 * timer.touch();
 */
export interface IdleTimer {
  /** Records activity: the silence is measured from now. */
  touch(): void;
  /** Cancels the timer. */
  stop(): void;
}

/**
 * Calls `onIdle` once when `touch` has not been called for `timeoutMs` on `scheduler`'s clock.
 * One scheduled action per silence, not one per event: `touch` only stores the time, and the
 * action re-arms itself for the rest of the window when activity happened meanwhile. A
 * `timeoutMs` of 0 or Infinity disables the timer.
 *
 * @param scheduler Where time comes from (`asyncScheduler` in production, a TestScheduler in tests).
 * @param timeoutMs The longest silence allowed.
 * @param onIdle Called once when the silence is longer.
 * @return The timer.
 *
 * @example
 * const idle = startIdleTimer(asyncScheduler, 60_000, () => controller.abort());
 * for await (const event of stream) { idle.touch(); … }
 * idle.stop();
 */
export function startIdleTimer(scheduler: SchedulerLike, timeoutMs: number, onIdle: () => void): IdleTimer {
  if (!(timeoutMs > 0) || !Number.isFinite(timeoutMs))
    return { touch: () => undefined, stop: () => undefined };
  let last = scheduler.now();
  let action: Subscription | undefined;
  const arm = (delay: number) => {
    action = scheduler.schedule(() => {
      const silent = scheduler.now() - last;
      if (silent >= timeoutMs) {
        action = undefined;
        onIdle();
      } else arm(timeoutMs - silent);
    }, delay);
  };
  arm(timeoutMs);
  return {
    touch: () => {
      last = scheduler.now();
    },
    stop: () => {
      action?.unsubscribe();
      action = undefined;
    },
  };
}
