import {
  asyncScheduler,
  catchError,
  concatMap,
  concatWith,
  defer,
  EMPTY,
  Observable,
  of,
  retry,
  takeWhile,
  tap,
  throwError,
  timer,
  type SchedulerLike,
} from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { SerializedError } from '../errors/serialize-error.js';
import { RemoteRunError, SSEConnectionError } from '../results/result-errors.js';
import { SSE_END_EVENT, SSE_ERROR_EVENT } from './sse-frames.js';
import { createSSEParser, type SSEMessage } from './sse-parser.js';

/**
 * Options of `fromSSE`.
 *
 * @example
 * fromSSE('/runs/1/events', { maxRetries: 10, init: { credentials: 'include' } });
 */
export interface FromSSEOptions {
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
  /** Extra request options (headers, credentials…); `signal` is the Observable's own. */
  init?: RequestInit;
  /** Wait before reconnecting, unless the server sent `retry:` (default 1000 ms). */
  retryMs?: number;
  /** Reconnects in a row without a new event before giving up (default 5). */
  maxRetries?: number;
  /** Scheduler of the reconnect delay (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
}

/** The connection ended before `run-end`: reconnect. */
class Dropped extends Error {}

/**
 * A run streamed by `toSSEStream` / `sendSSE`, read back as an `Observable<AgentEvent>` (in a
 * browser or in Node, over `fetch`). When the connection drops before the run's end it
 * reconnects with `Last-Event-ID`, so a `RunHub` on the server resumes exactly after the last
 * event received: `withState(fromSSE(url))` folds the same state as the server's. Completes at
 * `run-end`; errors with `RemoteRunError` when the run failed on the server, or
 * `SSEConnectionError` after `maxRetries` failed reconnects or a non-SSE response.
 * Unsubscribing aborts the request.
 *
 * @param input The stream's URL, or a `Response` already fetched (reconnects use its `url`).
 * @param options `fetch`, `init`, `retryMs`, `maxRetries`, `scheduler`.
 * @return A cold Observable of the run's events.
 *
 * @example
 * const { events$, state$ } = withState(fromSSE('/runs/1/events'));
 * state$.subscribe((s) => render(s.phase, s.messages));
 * events$.subscribe();
 */
export function fromSSE(
  input: string | URL | Response,
  options: FromSSEOptions = {},
): Observable<AgentEvent> {
  const fetchImpl = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const scheduler = options.scheduler ?? asyncScheduler;
  const maxRetries = options.maxRetries ?? 5;
  return defer(() => {
    let first: Response | undefined = typeof input === 'object' && 'body' in input ? input : undefined;
    const url = first ? first.url : typeof input === 'string' ? input : (input as URL).href;
    let lastId: string | undefined;
    let retryMs = options.retryMs ?? 1000;
    let ended = false;

    const connection$ = defer(() => {
      const given = first;
      first = undefined;
      if (!given && !url) {
        return throwError(
          () =>
            new SSEConnectionError(
              'Cannot reconnect: the Response has no url. Pass the URL to fromSSE instead.',
            ),
        );
      }
      return messages(
        given,
        () => {
          const headers = new Headers(options.init?.headers);
          headers.set('accept', 'text/event-stream');
          if (lastId !== undefined) headers.set('last-event-id', lastId);
          return { url, init: { ...options.init, headers } };
        },
        fetchImpl,
        (ms) => (retryMs = ms),
      );
    });

    return connection$.pipe(
      tap((message) => {
        if (message.id !== undefined) lastId = message.id;
        if (message.event === SSE_END_EVENT) ended = true;
      }),
      takeWhile((message) => message.event !== SSE_END_EVENT),
      concatMap((message): Observable<AgentEvent> => {
        if (message.event === SSE_ERROR_EVENT) {
          ended = true;
          return throwError(() => new RemoteRunError(JSON.parse(message.data) as SerializedError));
        }
        return message.event === 'message' ? of(JSON.parse(message.data) as AgentEvent) : EMPTY;
      }),
      // The body ended without run-end: the connection dropped.
      concatWith(defer(() => (ended ? EMPTY : throwError(() => new Dropped())))),
      retry({
        count: maxRetries,
        resetOnSuccess: true,
        delay: (error: unknown) =>
          error instanceof Dropped || isNetworkFailure(error)
            ? timer(retryMs, scheduler)
            : throwError(() => error),
      }),
      // Out of retries: say so with a typed error.
      catchError((error: unknown) =>
        throwError(() =>
          error instanceof Dropped || isNetworkFailure(error)
            ? new SSEConnectionError(
                `The event stream at ${url} dropped ${maxRetries + 1} times in a row without a new event: check the server, or raise { maxRetries }.`,
              )
            : error,
        ),
      ),
    );
  });
}

function isNetworkFailure(error: unknown): boolean {
  // fetch rejects with a TypeError when the network fails (server down, connection reset); by
  // name, since it may come from another realm (a worker, a test VM).
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'TypeError';
}

/** One connection's SSE messages; completes when the body ends, aborts on unsubscribe. */
function messages(
  given: Response | undefined,
  request: () => { url: string; init: RequestInit },
  fetchImpl: (url: string, init: RequestInit) => Promise<Response>,
  onRetry: (ms: number) => void,
): Observable<SSEMessage> {
  return new Observable<SSEMessage>((subscriber) => {
    const abort = new AbortController();
    const parser = createSSEParser({ message: (m) => subscriber.next(m), retry: onRetry });
    const read = async () => {
      let response = given;
      if (!response) {
        const { url, init } = request();
        response = await fetchImpl(url, { ...init, signal: abort.signal });
      }
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
      for (;;) {
        const { value, done } = await reader.read();
        if (done || abort.signal.aborted) break;
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
    return () => abort.abort();
  });
}
