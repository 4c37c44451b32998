import { RxAgentError } from '@rxagent/core';

/**
 * A durable run's spec is unusable: a model or tool no worker registered, or a value that
 * cannot be stored. Thrown by `startRun` before anything is enqueued.
 *
 * @example
 * try { await runs.startRun({ model: 'gpt-9', prompt: 'Hi' }); }
 * catch (e) { if (DurableRunSpecError.isInstance(e)) console.error(e.message); }
 */
export class DurableRunSpecError extends RxAgentError {
  static override readonly kind: string = 'DurableRunSpecError';
}

/**
 * PostgreSQL did not answer in time (it is down, or unreachable). Nothing is lost: an enqueue
 * that timed out may still land when the database returns, so retry with the same `runId`.
 *
 * @example
 * try { await runs.startRun({ runId: 'order-42', model: 'main', prompt }); }
 * catch (e) { if (DurableUnavailableError.isInstance(e)) setTimeout(retry, 5_000); }
 */
export class DurableUnavailableError extends RxAgentError {
  static override readonly kind: string = 'DurableUnavailableError';
}

/**
 * A durable run ended without an `agent-end`: it was cancelled before it started, or its
 * workflow failed outside the agent loop.
 *
 * @example
 * runs.watchRun(id).subscribe({ error: (e) => DurableRunEndedError.isInstance(e) && console.log(e.status) });
 */
export class DurableRunEndedError extends RxAgentError {
  static override readonly kind: string = 'DurableRunEndedError';
  constructor(
    message: string,
    /** The workflow's status: `CANCELLED`, `ERROR`, or `MAX_RECOVERY_ATTEMPTS_EXCEEDED`. */
    readonly status: string,
  ) {
    super(message);
  }
}

/**
 * A durable run, a worker, or a client was used wrongly (a second worker in one process, a
 * call after `close()`, an unknown run id).
 *
 * @example
 * await startWorker(options); await startWorker(options); // DurableUsageError: one worker per process
 */
export class DurableUsageError extends RxAgentError {
  static override readonly kind: string = 'DurableUsageError';
}
