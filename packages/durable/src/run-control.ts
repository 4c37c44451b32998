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
