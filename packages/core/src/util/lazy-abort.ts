/**
 * An AbortController made only when someone reads its `signal`: most tool calls never look
 * at it, and creating one (an EventTarget) is the most expensive part of a cheap call.
 *
 * @example
 * const cancel = new LazyAbortController();
 * const ctx = { get signal() { return cancel.signal; } };
 * cancel.abort('timeout'); // aborts the signal if it was made, or makes it aborted later
 */
export class LazyAbortController {
  private controller?: AbortController;
  private aborted = false;
  private reason: unknown;

  /** The signal, made on first read (already aborted if `abort` came first). */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  /** Aborts the signal (now, or when it is made). */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}
