import type { SchedulerLike, Subscription } from 'rxjs';

/**
 * Calls `onIdle` once when `touch()` has not been called for `timeoutMs` (measured on the
 * scheduler); never touched, it is a plain deadline. Touching only records the time, so a
 * stream of thousands of chunks costs one scheduled check per timeout period, not one timer
 * per chunk. `timeoutMs` of 0, a negative number or `Infinity` disables it.
 *
 * @example
 * const idle = new IdleTimeout(60_000, asyncScheduler, () => abort.abort());
 * idle.start();
 * for await (const chunk of stream) idle.touch();
 * idle.stop();
 */
export class IdleTimeout {
  private lastActivity = 0;
  private check: Subscription | undefined;
  private stopped = false;

  constructor(
    private readonly timeoutMs: number,
    private readonly scheduler: SchedulerLike,
    private readonly onIdle: () => void,
  ) {}

  /** Arms the timer, counting from now. */
  start(): void {
    if (this.stopped || !(this.timeoutMs > 0 && Number.isFinite(this.timeoutMs))) return;
    this.lastActivity = this.scheduler.now();
    this.arm(this.timeoutMs);
  }

  /** Records activity: the silence starts again from now. */
  touch(): void {
    this.lastActivity = this.scheduler.now();
  }

  /** Disarms the timer for good. */
  stop(): void {
    this.stopped = true;
    this.check?.unsubscribe();
    this.check = undefined;
  }

  private arm(delayMs: number): void {
    this.check?.unsubscribe();
    this.check = this.scheduler.schedule(() => {
      if (this.stopped) return;
      const silentMs = this.scheduler.now() - this.lastActivity;
      if (silentMs >= this.timeoutMs) {
        this.stop();
        this.onIdle();
      } else {
        this.arm(this.timeoutMs - silentMs);
      }
    }, delayMs);
  }
}
