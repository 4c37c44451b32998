import { Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { SSEConnectionError } from '../results/result-errors.js';
import { createSSEParser, type SSEMessage } from './sse-parser.js';
import { SSEIdleTimeoutError } from './wire-errors.js';

/** What one SSE connection needs. */
export interface SSEConnectionOptions {
  /** A response already fetched (the first connection of `fromSSE(response)`). */
  given?: Response;
  request(): { url: string; init: RequestInit };
  fetch(url: string, init: RequestInit): Promise<Response>;
  onRetry(ms: number): void;
  /** Silence (no byte) longer than this fails the connection with `SSEIdleTimeoutError`. */
  idleTimeoutMs: number;
  maxLineLength: number;
  scheduler: SchedulerLike;
}

/**
 * One connection's SSE messages: completes when the body ends, errors when the response is
 * not an event stream, the network fails, the stream stays silent for `idleTimeoutMs` or a
 * line is too long; unsubscribing aborts the request.
 *
 * @example
 * sseConnection({ request: () => ({ url, init: {} }), fetch, onRetry: () => undefined, idleTimeoutMs: 60_000, maxLineLength: 1 << 25, scheduler: asyncScheduler });
 */
export function sseConnection(options: SSEConnectionOptions): Observable<SSEMessage> {
  return new Observable<SSEMessage>((subscriber) => {
    const abort = new AbortController();
    const parser = createSSEParser(
      { message: (m) => subscriber.next(m), retry: (ms) => options.onRetry(ms) },
      { maxLineLength: options.maxLineLength },
    );
    let idle: Subscription | undefined;
    let url = '';
    const quiet = () => {
      idle?.unsubscribe();
      if (!Number.isFinite(options.idleTimeoutMs) || options.idleTimeoutMs <= 0) return;
      idle = options.scheduler.schedule(() => {
        const error = new SSEIdleTimeoutError(
          `The event stream at ${url || 'the server'} sent nothing for ${options.idleTimeoutMs} ms (not even a keep-alive): ` +
            'the server stalled or the connection is dead. Raise { idleTimeoutMs } if the server is that quiet.',
        );
        abort.abort();
        subscriber.error(error);
      }, options.idleTimeoutMs);
    };
    const read = async () => {
      let response = options.given;
      if (!response) {
        const request = options.request();
        url = request.url;
        quiet();
        response = await options.fetch(request.url, { ...request.init, signal: abort.signal });
      }
      url = response.url || url;
      const type = response.headers.get('content-type') ?? '';
      if (!response.ok || !type.includes('text/event-stream') || !response.body) {
        void response.body?.cancel();
        throw new SSEConnectionError(
          `Expected a text/event-stream from ${response.url || 'the server'}, got ${response.status} ${type || '(no content type)'}.`,
          response.status,
        );
      }
      const reader: ReadableStreamDefaultReader<Uint8Array> = response.body.getReader();
      abort.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined));
      const decoder = new TextDecoder();
      quiet();
      for (;;) {
        const { value, done } = await reader.read();
        if (done || abort.signal.aborted) break;
        quiet();
        parser.push(decoder.decode(value, { stream: true }));
      }
      parser.push(decoder.decode());
    };
    read().then(
      () => subscriber.complete(),
      (error: unknown) => {
        if (!abort.signal.aborted) subscriber.error(error);
      },
    );
    return () => {
      idle?.unsubscribe();
      abort.abort();
    };
  });
}
