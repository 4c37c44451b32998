import {
  asyncScheduler,
  catchError,
  connect,
  endWith,
  interval,
  last,
  map,
  merge,
  of,
  startWith,
  takeUntil,
  type Observable,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { RunHub } from './share-run.js';
import {
  END_FRAME,
  errorFrame,
  eventFrame,
  KEEP_ALIVE_FRAME,
  retryFrame,
  SSE_HEADERS,
} from './sse-frames.js';

/**
 * Options of `toSSEStream`, `sseResponse` and `sendSSE`.
 *
 * @example
 * toSSEStream(hub, { lastEventId: request.headers.get('last-event-id'), keepAliveMs: 10_000 });
 */
export interface SSEStreamOptions {
  /** With a `RunHub`: the client's `Last-Event-ID`, to resume after it. */
  lastEventId?: string | number | null;
  /** A `: keep-alive` comment this often while the run is quiet (default 15 000 ms; 0: none). */
  keepAliveMs?: number;
  /** How long a client waits before reconnecting (the SSE `retry:` field; default: not sent). */
  retryMs?: number;
  /** Scheduler of the keep-alive timer (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
}

function isRunHub(source: Observable<AgentEvent> | RunHub): source is RunHub {
  return typeof (source as Partial<RunHub>).join === 'function';
}

/**
 * The SSE frames (text) of a run: one `data:` message per event with its `id`, keep-alive
 * comments, then `event: run-end` — or `event: run-error` with the serialized error.
 *
 * @example
 * sseFrames(runAgent(config)).subscribe((frame) => socket.write(frame));
 */
export function sseFrames(
  source: Observable<AgentEvent> | RunHub,
  options: SSEStreamOptions = {},
): Observable<string> {
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const scheduler = options.scheduler ?? asyncScheduler;
  const entries$ = isRunHub(source)
    ? source.join(options.lastEventId)
    : source.pipe(map((event, i) => ({ id: i + 1, event })));
  const frames$ = entries$.pipe(
    map(eventFrame),
    endWith(END_FRAME),
    catchError((error: unknown) => of(errorFrame(error))),
  );
  const withKeepAlive$ =
    keepAliveMs > 0
      ? frames$.pipe(
          connect((shared$) =>
            merge(
              shared$,
              interval(keepAliveMs, scheduler).pipe(
                map(() => KEEP_ALIVE_FRAME),
                takeUntil(shared$.pipe(last(undefined, null))),
              ),
            ),
          ),
        )
      : frames$;
  return options.retryMs === undefined
    ? withKeepAlive$
    : withKeepAlive$.pipe(startWith(retryFrame(options.retryMs)));
}

/**
 * A run as a web `ReadableStream` of Server-Sent Events (UTF-8 bytes): each event as JSON in
 * a `data:` line with its `id`, `: keep-alive` comments while the run is quiet, `event: run-end`
 * when it ends, or `event: run-error` with the serialized error (name, message, status — never
 * a body or a stack). The run starts when the stream is read and is cancelled when the stream
 * is (the client went away). Pass a `RunHub` (`shareRun`) and the client's `Last-Event-ID`
 * to resume a reconnecting client exactly; a plain run is numbered from 1.
 *
 * @param source A run, or a `RunHub` shared by many clients.
 * @param options `lastEventId`, `keepAliveMs`, `retryMs`, `scheduler`.
 * @return A `ReadableStream<Uint8Array>` for a `Response` body.
 *
 * @example
 * // A fetch-style handler (Hono, Deno, Bun, Next.js route handlers…)
 * const handler = () => new Response(toSSEStream(runAgent(config)), { headers: SSE_HEADERS });
 */
export function toSSEStream(
  source: Observable<AgentEvent> | RunHub,
  options: SSEStreamOptions = {},
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let subscription: Subscription | undefined;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      subscription = sseFrames(source, options).subscribe({
        next: (frame) => controller.enqueue(encoder.encode(frame)),
        // sseFrames turns the run's error into a frame: an error here is a bug, surfaced as one.
        error: (error: unknown) => controller.error(error),
        complete: () => controller.close(),
      });
    },
    cancel() {
      subscription?.unsubscribe();
    },
  });
}

/**
 * A `Response` streaming a run as Server-Sent Events (`toSSEStream` with `SSE_HEADERS`), for
 * fetch-style servers. With a `RunHub`, pass the request's `Last-Event-ID` header.
 *
 * @example
 * app.get('/runs/:id/events', (c) => sseResponse(hubs.get(c.req.param('id'))!, { lastEventId: c.req.header('last-event-id') }));
 */
export function sseResponse(
  source: Observable<AgentEvent> | RunHub,
  options: SSEStreamOptions = {},
): Response {
  return new Response(toSSEStream(source, options), { status: 200, headers: { ...SSE_HEADERS } });
}
