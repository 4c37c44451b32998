import {
  asyncScheduler,
  catchError,
  concatMap,
  EMPTY,
  exhaustMap,
  from,
  timer,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';

/**
 * A durable run as a listing gives it: id, workflow status, and when it was created.
 *
 * @example
 * const listing: DurableRunListing = { runId: 'ticket-1234', status: 'PENDING', createdAt: 1764090000000 };
 */
export interface DurableRunListing {
  runId: string;
  status: string;
  /** Epoch ms. */
  createdAt: number;
}

/**
 * Options of `followDurableRuns`.
 *
 * @example
 * followDurableRuns(dashboard, lister.list, { intervalMs: 1000, onError: console.error });
 */
export interface FollowDurableOptions {
  /** How often the runs are listed (default 1000 ms). */
  intervalMs?: number;
  /** Clock of the polling and of "since when" (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
  /** Where a failed listing or attach is reported (default: ignored; the next round tries again). */
  onError?: (error: unknown) => void;
}

const ACTIVE = new Set(['ENQUEUED', 'PENDING']);

/**
 * Shows every durable run started from now on, and every run still queued or executing, in
 * the dashboard, as soon as a listing finds it (each run once: a card removed from the page
 * stays removed). A failed listing (database down) is skipped; the next one catches up.
 *
 * @example
 * const lister = await durableRunLister(databaseUrl);
 * const following = followDurableRuns(dashboard, () => lister.list());
 * // …
 * following.unsubscribe();
 */
export function followDurableRuns(
  dashboard: { attachDurable(runId: string): Promise<string> },
  list: () => Promise<readonly DurableRunListing[]>,
  options: FollowDurableOptions = {},
): Subscription {
  const scheduler = options.scheduler ?? asyncScheduler;
  const since = scheduler.now();
  const seen = new Set<string>();
  const report = (error: unknown) => {
    options.onError?.(error);
    return EMPTY;
  };
  return timer(0, options.intervalMs ?? 1000, scheduler)
    .pipe(
      exhaustMap(() =>
        from(list()).pipe(
          concatMap((runs) => {
            const fresh = runs
              .filter((run) => !seen.has(run.runId) && (ACTIVE.has(run.status) || run.createdAt >= since))
              .sort((a, b) => a.createdAt - b.createdAt);
            return from(fresh).pipe(
              concatMap((run) =>
                from(dashboard.attachDurable(run.runId).then(() => seen.add(run.runId))).pipe(
                  catchError(report),
                ),
              ),
            );
          }),
          catchError(report),
        ),
      ),
    )
    .subscribe();
}
