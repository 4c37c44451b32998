import { DBOS } from '@dbos-inc/dbos-sdk';
import type { Subscription } from 'rxjs';
import type { EventLogWriter } from './event-log.js';

/**
 * A durable run executing in this worker: how to cancel it (an abort the loop sees), how to
 * fence it (drop it silently when another worker took it over), and the approvals it waits on.
 */
export class RunControl {
  readonly abort = new AbortController();
  /** Approval topics this run waits on (woken when it is cancelled). */
  readonly waiting = new Set<string>();
  subscription: Subscription | undefined;
  private fenceResolve: (() => void) | undefined;
  /** Settles when the run is fenced: its execution must stop without a trace. */
  readonly fenced = new Promise<void>((resolve) => (this.fenceResolve = resolve));
  isFenced = false;

  constructor(
    readonly runId: string,
    readonly log: EventLogWriter,
  ) {}

  cancel(): void {
    if (!this.abort.signal.aborted) this.abort.abort(new Error('The durable run was cancelled.'));
  }

  fence(): void {
    if (this.isFenced) return;
    this.isFenced = true;
    this.log.stop();
    this.subscription?.unsubscribe();
    this.fenceResolve?.();
  }
}

/** Names of DBOS errors that mean "this execution of the run must stop" rather than a failure. */
const CANCELLED = new Set(['DBOSWorkflowCancelledError', 'DBOSAwaitedWorkflowCancelledError']);
const SUPERSEDED = new Set(['DBOSWorkflowConflictError']);

/**
 * Handles a DBOS error from a step: a cancelled workflow aborts the run (it ends with
 * `user-requested`); a step another execution already recorded fences this one. Returns true
 * when handled, so the caller neither emits nor errors.
 */
export function handleEngineError(control: RunControl, error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  const ctor = (error as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  const is = (names: Set<string>) => names.has(String(name)) || names.has(String(ctor));
  if (is(CANCELLED)) {
    control.cancel();
    return true;
  }
  if (is(SUPERSEDED)) {
    // DBOS says this execution no longer owns the workflow: a cancel does that too (before the
    // worker's watch sees it), so only a workflow that is not cancelled was taken over.
    DBOS.getWorkflowStatus(control.runId).then(
      (status) => (status?.status === 'CANCELLED' ? control.cancel() : control.fence()),
      () => control.fence(),
    );
    return true;
  }
  return false;
}
