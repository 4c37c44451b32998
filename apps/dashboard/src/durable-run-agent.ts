import { catchError, EMPTY, throwError, type Observable } from 'rxjs';
import type { AgentEvent } from '@rxagent/core';
import type { DashboardAgent } from './run-registry.js';
import { RunControlError, watchedRunAgent } from './watched-run.js';

/**
 * What the dashboard needs of `@rxagent/durable`'s client (`durableRuns(…)` fits): watch a
 * run's events, look it up, decide its approvals, cancel it. Written out here rather than
 * imported, so the dashboard's types compile without `@rxagent/durable` (an optional peer:
 * a dashboard without durable runs never installs or loads DBOS).
 *
 * @example
 * const durable: DashboardDurableRuns = await durableRuns({ databaseUrl });
 */
export interface DashboardDurableRuns {
  watchRun(runId: string): Observable<AgentEvent>;
  status(runId: string): Promise<string | undefined>;
  /** False when the call does not wait for a decision (nothing is sent). */
  approve(runId: string, toolCallId: string): Promise<boolean>;
  reject(runId: string, toolCallId: string, reason?: string): Promise<boolean>;
  cancel(runId: string): Promise<void>;
}

/**
 * A durable run (executing in any worker process) as a dashboard agent: its state is
 * `withState(runs.watchRun(runId))`, so the card shows what an in-process run's shows, from
 * the run's start even when attached late. _Approve_ / _Reject_ reach `runs.approve` /
 * `runs.reject` (only for a call shown waiting; a failed call rejects, so the page reports it
 * and the call still waits), _Abort_ is `runs.cancel`.
 *
 * @example
 * const id = registry.add(durableRunAgent(runs, 'ticket-1234'), 'durable ticket-1234');
 */
export function durableRunAgent(runs: DashboardDurableRuns, runId: string): DashboardAgent {
  // A run cancelled while it waited (or before it started) may end without an agent-end: the
  // watch then fails with DurableRunEndedError(CANCELLED). It was cancelled, not broken: ending
  // the stream there folds to `cancelled`. (By name: the class would load DBOS here.)
  const events$ = runs
    .watchRun(runId)
    .pipe(catchError((error: unknown) => (isCancelledEnd(error) ? EMPTY : throwError(() => error))));
  return watchedRunAgent(events$, {
    approve: async (toolCallId) => sent(await runs.approve(runId, toolCallId), toolCallId),
    reject: async (toolCallId, reason) => sent(await runs.reject(runId, toolCallId, reason), toolCallId),
    cancel: () => runs.cancel(runId),
  });
}

/** A decision the run's log shows nothing waiting for was not sent: the page says so. */
function sent(delivered: boolean, toolCallId: string): void {
  if (!delivered)
    throw new RunControlError(`The call ${toolCallId} does not wait for a decision in the durable run.`);
}

function isCancelledEnd(error: unknown): boolean {
  const { name, status } = (error ?? {}) as { name?: unknown; status?: unknown };
  return name === 'DurableRunEndedError' && status === 'CANCELLED';
}
