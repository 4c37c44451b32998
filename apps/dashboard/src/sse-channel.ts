import { asyncScheduler, interval, type SchedulerLike, type Subscription } from 'rxjs';

/**
 * One Server-Sent Event: a name, a payload (text; may span lines) and an optional id.
 *
 * @example
 * formatSseEvent({ event: 'run', id: '1', data: '{}' });
 */
export interface SseMessage {
  event?: string;
  data: string;
  id?: string;
}

/**
 * The wire text of one event: `event:`, `id:`, one `data:` line per line of the payload, and
 * the blank line that ends it.
 *
 * @example
 * formatSseEvent({ event: 'run', data: '{"id":"run-1"}' }); // 'event: run\ndata: {"id":"run-1"}\n\n'
 */
export function formatSseEvent(message: SseMessage): string {
  let out = '';
  if (message.event !== undefined) out += `event: ${singleLine(message.event, 'event name')}\n`;
  if (message.id !== undefined) out += `id: ${singleLine(message.id, 'event id')}\n`;
  for (const line of message.data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return out + '\n';
}

/**
 * A comment line (ignored by `EventSource`): keeps idle connections and proxies alive.
 *
 * @example
 * formatSseComment('heartbeat'); // ': heartbeat\n\n'
 */
export function formatSseComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
}

function singleLine(value: string, what: string): string {
  if (/[\r\n]/.test(value))
    throw new TypeError(`An SSE ${what} cannot contain a line break: ${JSON.stringify(value)}.`);
  return value;
}

/**
 * What an `SseChannel` writes to: a `ServerResponse` fits. `write` returns false when the
 * client's buffer is full; `'drain'` says it emptied; `destroy` drops a client that lags.
 *
 * @example
 * http.createServer((req, res) => new SseChannel(res)); // a ServerResponse is an SseResponse
 */
export interface SseResponse {
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: string): boolean;
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
  private readonly queue: string[] = [];
  private queued = 0;
  private full = false;
  private readonly maxQueuedBytes: number;

  constructor(
    private readonly res: SseResponse,
    options: SseChannelOptions = {},
  ) {
    this.maxQueuedBytes = options.maxQueuedBytes ?? 1024 * 1024;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
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
    return this.write(formatSseEvent({ event, data: JSON.stringify(data) }));
  }

  /** Sends a comment line; false once closed. */
  comment(text: string): boolean {
    if (this.isClosed) return false;
    return this.write(formatSseComment(text));
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

  private write(text: string): boolean {
    if (!this.full) {
      this.full = !this.res.write(text);
      return true;
    }
    this.queued += Buffer.byteLength(text);
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
      const text = this.queue.shift() as string;
      this.queued -= Buffer.byteLength(text);
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
