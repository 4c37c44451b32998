import type { Observable } from 'rxjs';
import {
  asyncScheduler,
  catchError,
  concatMap,
  concatWith,
  defer,
  EMPTY,
  of,
  retry,
  takeWhile,
  throwError,
  timer,
  type SchedulerLike,
} from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { SerializedError } from '../errors/serialize-error.js';
import { RemoteRunError, SSEConnectionError } from '../results/result-errors.js';
import { sseConnection } from './sse-connection.js';
import { SSE_END_EVENT, SSE_ERROR_EVENT } from './sse-frames.js';
import { DEFAULT_MAX_LINE_LENGTH, type SSEMessage } from './sse-parser.js';
import { parseEventId } from './wire/event-id.js';
import { createWireDecoder } from './wire/wire-decoder.js';
import {
  SSEIdleTimeoutError,
  SSEReaderTooSlowError,
  SSEResumeRefusedError,
  WireFormatError,
} from './wire-errors.js';

/**
 * Options of `fromSSE`.
 *
 * @example
 * fromSSE('/runs/1/events', { maxRetries: 10, idleTimeoutMs: 60_000, init: { credentials: 'include' } });
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
  /** A connection silent this long (no event, no keep-alive) counts as dropped (default 60 000 ms; 0: never). */
  idleTimeoutMs?: number;
  /** Longest SSE line accepted, in characters (default 32 M): past it, `SSELineTooLongError`. */
  maxLineLength?: number;
  /** Scheduler of the reconnect delay and the idle timeout (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
}

/** The connection ended before `run-end`: reconnect. */
class Dropped extends Error {}

/** The stream errors a server sends as `run-error`, revived as their own classes. */
const STREAM_ERRORS: Record<string, new (message: string) => Error> = {
  SSEResumeRefusedError,
  SSEReaderTooSlowError,
};

const isDrop = (error: unknown) =>
  error instanceof Dropped || isNetworkFailure(error) || SSEIdleTimeoutError.isInstance(error);

/**
 * A run streamed by `toSSEStream` / `sendSSE`, read back as an `Observable<AgentEvent>` (in a
 * browser or in Node, over `fetch`), decoded from the wire format: partial messages are
 * rebuilt from the deltas, so `withState(fromSSE(url))` folds the same state as the server's.
 * When the connection drops (or stays silent past `idleTimeoutMs`) before the end it
 * reconnects with `Last-Event-ID` and drops any event it already has: a `RunHub` on the server
 * resumes after it, a server that cannot resume refuses (`SSEResumeRefusedError`) — never a
 * second run. Completes at `run-end`; errors with `RemoteRunError` (the run failed on the
 * server), `SSEConnectionError` (not an event stream, or `maxRetries` drops in a row;
 * `SSEIdleTimeoutError` when they were silences), `SSEReaderTooSlowError` (the server cut this
 * reader off), `WireSequenceError` (events missing), `WireFormatError` / `SSELineTooLongError`
 * (corrupt data). Events of a type this version does not know are skipped. Unsubscribing
 * aborts the request.
 *
 * @param input The stream's URL, or a `Response` already fetched (reconnects use its `url`).
 * @param options `fetch`, `init`, `retryMs`, `maxRetries`, `idleTimeoutMs`, `maxLineLength`, `scheduler`.
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
    const decoder = createWireDecoder();
    let lastId: string | undefined;
    let runId: string | undefined;
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
      return sseConnection({
        ...(given ? { given } : {}),
        request: () => {
          const headers = new Headers(options.init?.headers);
          headers.set('accept', 'text/event-stream');
          if (lastId !== undefined) headers.set('last-event-id', lastId);
          return { url, init: { ...options.init, headers } };
        },
        fetch: fetchImpl,
        onRetry: (ms) => (retryMs = ms),
        idleTimeoutMs: options.idleTimeoutMs ?? 60_000,
        maxLineLength: options.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH,
        scheduler,
      });
    });
    const take = (message: SSEMessage): Observable<AgentEvent> => {
      if (message.event === SSE_ERROR_EVENT) {
        ended = true;
        const remote = parse(message.data) as SerializedError;
        const Known = STREAM_ERRORS[remote?.name];
        return throwError(() => (Known ? new Known(remote.message) : new RemoteRunError(remote)));
      }
      if (message.event !== 'message') return EMPTY;
      const id = parseEventId(message.id);
      if (id?.runId !== undefined) {
        runId ??= id.runId;
        if (id.runId !== runId) {
          ended = true;
          return throwError(
            () =>
              new SSEResumeRefusedError(
                `The server answered the reconnect with run "${id.runId}", not run "${runId}": it does not resume this stream.`,
              ),
          );
        }
      }
      const event = decoder.decode(parse(message.data));
      if (message.id !== undefined && id?.seq === decoder.lastSeq) lastId = message.id;
      return event ? of(event) : EMPTY;
    };
    return connection$.pipe(
      takeWhile((message) => {
        if (message.event === SSE_END_EVENT) ended = true;
        return message.event !== SSE_END_EVENT;
      }),
      concatMap(take),
      // The body ended without run-end: the connection dropped.
      concatWith(defer(() => (ended ? EMPTY : throwError(() => new Dropped())))),
      retry({
        count: maxRetries,
        resetOnSuccess: true,
        delay: (error: unknown) =>
          isDrop(error) && !ended ? timer(retryMs, scheduler) : throwError(() => error),
      }),
      // Out of retries: say so with a typed error.
      catchError((error: unknown) => {
        if (!isDrop(error)) return throwError(() => error);
        const idle = SSEIdleTimeoutError.isInstance(error);
        const message = `The event stream at ${url} ${idle ? 'went silent' : 'dropped'} ${maxRetries + 1} times in a row without a new event: check the server, or raise { maxRetries }.`;
        return throwError(() => (idle ? new SSEIdleTimeoutError(message) : new SSEConnectionError(message)));
      }),
    );
  });
}

function parse(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    throw new WireFormatError(
      `An SSE event's data is not JSON (${data.length > 80 ? `${data.slice(0, 80)}…` : data}): the stream is corrupt or not an rxagent run.`,
    );
  }
}

function isNetworkFailure(error: unknown): boolean {
  // fetch rejects with a TypeError when the network fails (server down, connection reset); by
  // name, since it may come from another realm (a worker, a test VM).
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'TypeError';
}
