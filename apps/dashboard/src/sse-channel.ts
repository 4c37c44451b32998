import { asyncScheduler, interval, type SchedulerLike, type Subscription } from 'rxjs';
import { formatSSEComment, formatSSEFrame, SSE_HEADERS } from '@rxagent/core/streams';

/**
 * What an `SseChannel` writes to: a `ServerResponse` fits. `write` returns false when the
 * client's buffer is full; `'drain'` says it emptied; `destroy` drops a client that lags.
 *
 * @example
 * http.createServer((req, res) => new SseChannel(res)); // a ServerResponse is an SseResponse
 */
export interface SseResponse {
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: string | Uint8Array): boolean;
  end(): unknown;
  destroy(): unknown;
  on(event: 'close' | 'drain', listener: () => void): unknown;
}

/**
 * Options of an `SseChannel`.
 *
 * @example
 * new SseChannel(res, { heartbeatMs: 15_000, retryMs: 1000, scheduler: asyncScheduler });
 */
export interface SseChannelOptions {
  /** Interval of the heartbeat comments, on `scheduler` (default 15 000 ms; 0 disables). */
  heartbeatMs?: number;
  /** Reconnection delay the browser should use (the `retry:` field; default 1000 ms). */
  retryMs?: number;
  scheduler?: SchedulerLike;
  /**
   * Most bytes kept for a client that does not read (its response said "full" and has not
   * drained yet); past it the client is closed (default 1 MiB).
   */
  maxQueuedBytes?: number;
}

/**
 * One open `text/event-stream` response: writes events as JSON, sends heartbeat comments on
 * the scheduler, and cleans up (heartbeat stopped, `onClose` callbacks run once) when the
 * client goes away or `close()` is called. Respects backpressure: once `write` returns false
 * it queues instead until `'drain'`, and closes a client whose queue passes `maxQueuedBytes`.
 *
 * @example
 * const channel = new SseChannel(res, { heartbeatMs: 15_000 });
 * channel.send('snapshot', { runs });
 * const sub = updates$.subscribe((u) => channel.send(u.type, u));
 * channel.onClose(() => sub.unsubscribe());
 */
export class SseChannel {
  private heartbeat?: Subscription;
  private readonly closeListeners: (() => void)[] = [];
  private isClosed = false;
  private readonly queue: (string | Uint8Array)[] = [];
  private queued = 0;
  private full = false;
  private readonly maxQueuedBytes: number;

  constructor(
    private readonly res: SseResponse,
    options: SseChannelOptions = {},
  ) {
    this.maxQueuedBytes = options.maxQueuedBytes ?? 1024 * 1024;
    res.writeHead(200, { ...SSE_HEADERS });
    this.write(`retry: ${options.retryMs ?? 1000}\n\n`);
    res.on('close', () => this.cleanUp());
    res.on('drain', () => this.flush());
    const heartbeatMs = options.heartbeatMs ?? 15_000;
    if (heartbeatMs > 0) {
      this.heartbeat = interval(heartbeatMs, options.scheduler ?? asyncScheduler).subscribe(() =>
        this.comment('heartbeat'),
      );
    }
  }

  /** True once the client went away or `close()` was called. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** Bytes waiting for the client to read (0 unless its response said it is full). */
  get queuedBytes(): number {
    return this.queued;
  }

  /** Sends `data` as JSON under the event name; false (nothing sent) once closed. */
  send(event: string, data: unknown): boolean {
    if (this.isClosed) return false;
    return this.write(formatSSEFrame({ event, data: JSON.stringify(data) }));
  }

  /**
   * Sends an event framed once for every client (`updateFrames`): the same bytes go to each
   * channel, so an update costs one serialization however many pages watch. False once closed.
   */
  sendFrame(frame: Uint8Array): boolean {
    if (this.isClosed) return false;
    return this.write(frame);
  }

  /** Sends a comment line; false once closed. */
  comment(text: string): boolean {
    if (this.isClosed) return false;
    return this.write(formatSSEComment(text));
  }

  /** Runs `listener` once when the channel closes (at once if it already has). */
  onClose(listener: () => void): void {
    if (this.isClosed) listener();
    else this.closeListeners.push(listener);
  }

  /** Ends the response (the browser will reconnect unless the page is gone). */
  close(): void {
    if (this.isClosed) return;
    this.cleanUp();
    this.res.end();
  }

  private write(text: string | Uint8Array): boolean {
    if (!this.full) {
      this.full = !this.res.write(text);
      return true;
    }
    this.queued += byteLength(text);
    this.queue.push(text);
    if (this.queued <= this.maxQueuedBytes) return true;
    // Too far behind: drop the client (its browser reconnects and gets a fresh snapshot).
    this.cleanUp();
    this.res.destroy();
    return false;
  }

  private flush(): void {
    this.full = false;
    while (!this.full && !this.isClosed && this.queue.length > 0) {
      const text = this.queue.shift() as string | Uint8Array;
      this.queued -= byteLength(text);
      this.full = !this.res.write(text);
    }
  }

  private cleanUp(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.queue.length = 0;
    this.queued = 0;
    this.heartbeat?.unsubscribe();
    for (const listener of this.closeListeners.splice(0)) listener();
  }
}

function byteLength(chunk: string | Uint8Array): number {
  return typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
}
