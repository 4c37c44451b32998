import { AsyncResource } from 'node:async_hooks';
import { DBOS } from '@dbos-inc/dbos-sdk';
import type { Subscription } from 'rxjs';
import { debugLog } from './debug-log.js';
import type { EventLogWriter } from './event-log.js';

/**
 * A durable run executing in this worker: how to cancel it (an abort the loop sees), how to
 * fence it (drop it silently when another worker took it over).
 */
export class RunControl {
  readonly abort = new AbortController();
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
    debugLog(`run ${this.runId}: cancelled`);
    if (!this.abort.signal.aborted) this.abort.abort(new Error('The durable run was cancelled.'));
  }

  fence(): void {
    if (this.isFenced) return;
    debugLog(`run ${this.runId}: fenced (another worker owns it now)`);
    this.isFenced = true;
    this.log.stop();
    this.subscription?.unsubscribe();
    this.fenceResolve?.();
  }
}

/**
 * Runs `work` outside the workflow's context: called inside a workflow, DBOS records a status
 * read as one of the workflow's steps, which a workflow it no longer owns cannot do. Bound at
 * module load, where there is no workflow.
 */
const outsideWorkflow = AsyncResource.bind(<T>(work: () => Promise<T>): Promise<T> => work());

/** DBOS error codes (`dbosErrorCode`) that mean "this execution of the run must stop". */
const CANCELLED = new Set([24, 27]); // WorkflowCancelled, TargetWorkflowCancelled
const SUPERSEDED = new Set([5]); // ConflictingWFIDError: no longer owned by this execution

/**
 * Handles a DBOS error from a step: a cancelled workflow aborts the run (it ends with
 * `user-requested`); a workflow this execution no longer owns is fenced, unless a cancel took
 * it. Returns true when handled, so the caller neither emits nor errors. Errors are told apart
 * by DBOS's error codes: their class names do not survive every bundling.
 */
export function handleEngineError(control: RunControl, error: unknown): boolean {
  const code = Number((error as { dbosErrorCode?: unknown } | null)?.dbosErrorCode);
  debugLog(`run ${control.runId}: engine error ${(error as Error)?.name} (DBOS code ${code})`);
  if (CANCELLED.has(code)) {
    control.cancel();
    return true;
  }
  if (SUPERSEDED.has(code)) {
    // DBOS says this execution no longer owns the workflow: a cancel does that too (before the
    // worker's watch sees it), so only a workflow that is not cancelled was taken over.
    if (control.abort.signal.aborted) return true;
    outsideWorkflow(() => DBOS.getWorkflowStatus(control.runId)).then(
      (status) => {
        debugLog(`run ${control.runId}: not owned any more; its status is ${status?.status}`);
        if (status?.status === 'CANCELLED') control.cancel();
        else control.fence();
      },
      () => control.fence(),
    );
    return true;
  }
  return false;
}
