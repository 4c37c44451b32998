import {
  asyncScheduler,
  Observable,
  type MonoTypeOperatorFunction,
  type SchedulerLike,
  Subscription,
} from 'rxjs';

/**
 * The limits of `streamTimeout`, as in RxJS `timeout({ first, each })`: `first` bounds the wait
 * for the first value, `each` the silence between two values (and the wait for the first one
 * when `first` is not given). A limit that is not a positive finite number is no limit.
 *
 * @example
 * const limits: StreamTimeoutConfig = { first: 30_000, each: 60_000, with: (kind) => new Error(`${kind} timeout`) };
 */
export interface StreamTimeoutConfig {
  first?: number;
  each?: number;
  /** The error to fail with; `kind` says which limit was passed. */
  with: (kind: 'first' | 'each') => unknown;
  /** Where time comes from (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
}

/**
 * `timeout({ first, each })` for long streams of small values: the same semantics, failing with
 * the error `with` makes, but a value only records the time, so a stream of thousands of
 * chunks costs one scheduled check per `each` period instead of a new timer per value. The
 * check re-arms itself for what is left of the window when values came meanwhile. The source
 * is unsubscribed when a limit is passed, before the error is sent.
 *
 * @param config The limits, the error and the scheduler.
 * @return An operator that mirrors the source, or fails when it is silent for too long.
 *
 * @example
 * import { streamTimeout } from '@rxagent/core/provider';
 *
 * chunks$.pipe(streamTimeout({ each: 60_000, scheduler, with: () => new StreamIdleError('silent for 60 s') }));
 */
export function streamTimeout<T>(config: StreamTimeoutConfig): MonoTypeOperatorFunction<T> {
  const scheduler = config.scheduler ?? asyncScheduler;
  const each = limit(config.each);
  const first = config.first === undefined ? each : limit(config.first);
  return (source) =>
    new Observable<T>((subscriber) => {
      let seen = false;
      let last = scheduler.now();
      let action: Subscription | undefined;
      const arm = (kind: 'first' | 'each', windowMs: number, delay = windowMs): void => {
        action?.unsubscribe();
        action = scheduler.schedule(() => {
          const silent = scheduler.now() - last;
          if (silent < windowMs) return arm(kind, windowMs, windowMs - silent);
          inner.unsubscribe();
          subscriber.error(config.with(kind));
        }, delay);
      };
      // A holder made first, so a check that runs at once (a synchronous scheduler) can end it.
      const inner = new Subscription();
      inner.add(
        source.subscribe({
          next: (value) => {
            last = scheduler.now();
            if (!seen) {
              // The first value came: from now on `each` applies, counted from each value.
              seen = true;
              if (each !== undefined) arm('each', each);
              else action?.unsubscribe();
            }
            subscriber.next(value);
          },
          error: (error: unknown) => subscriber.error(error),
          complete: () => subscriber.complete(),
        }),
      );
      if (!subscriber.closed && !seen && first !== undefined)
        arm(config.first === undefined ? 'each' : 'first', first);
      return () => {
        action?.unsubscribe();
        inner.unsubscribe();
      };
    });
}

function limit(ms: number | undefined): number | undefined {
  return ms !== undefined && ms > 0 && Number.isFinite(ms) ? ms : undefined;
}
