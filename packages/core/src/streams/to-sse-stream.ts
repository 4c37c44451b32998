import {
  asyncScheduler,
  catchError,
  connect,
  defer,
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
} from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import { boundedStream } from './bounded-stream.js';
import type { RunHub } from './share-run.js';
import { END_FRAME, errorFrame, KEEP_ALIVE_FRAME, retryFrame, SSE_HEADERS } from './sse-frames.js';
import { formatEventId, parseEventId } from './wire/event-id.js';
import { createWireEncoder } from './wire/wire-encoder.js';
import { SSEReaderTooSlowError, SSEResumeRefusedError } from './wire-errors.js';

/**
 * Options of `toSSEStream`, `sseResponse` and `sendSSE`.
 *
 * @example
 * toSSEStream(hub, { lastEventId: request.headers.get('last-event-id'), keepAliveMs: 10_000 });
 */
export interface SSEStreamOptions {
  /** The client's `Last-Event-ID`: with a `RunHub`, resume after it; with a plain run, refused. */
  lastEventId?: string | number | null;
  /** A `: keep-alive` comment this often while the run is quiet (default 15 000 ms; 0: none). */
  keepAliveMs?: number;
  /** How long a client waits before reconnecting (the SSE `retry:` field; default: not sent). */
  retryMs?: number;
  /**
   * Most bytes written for this reader and not read yet (default 16 MiB): past it the reader
   * is cut off with a last `run-error` event (`SSEReaderTooSlowError`) — the run is neither
   * slowed down for it nor buffered without bound.
   */
  maxBufferedBytes?: number;
  /** Scheduler of the keep-alive timer (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
}

/** Default of `maxBufferedBytes`. */
export const DEFAULT_MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

function isRunHub(source: Observable<AgentEvent> | RunHub): source is RunHub {
  return typeof (source as Partial<RunHub>).join === 'function';
}

/** The encoded frames of a run or a hub's join, numbered with its `<runId>:<seq>` ids. */
function eventFrames(source: Observable<AgentEvent> | RunHub, lastEventId: SSEStreamOptions['lastEventId']) {
  return defer(() => {
    const hub = isRunHub(source) ? source : undefined;
    if (!hub && parseEventId(lastEventId) !== undefined) {
      // A plain run cannot resume: subscribing it again would start a second run.
      const refusal = new SSEResumeRefusedError(
        `Cannot resume after event ${String(lastEventId)}: this server streams a run that is not shared, so it would start a ` +
          'second one. Share the run with shareRun() to let clients resume.',
      );
      return of(errorFrame(refusal));
    }
    const encoder = createWireEncoder();
    let runId = hub?.runId;
    const entries$ = hub
      ? hub.join(lastEventId)
      : (source as Observable<AgentEvent>).pipe(map((event, i) => ({ id: i + 1, event })));
    return entries$.pipe(
      map(({ id, event }) => {
        if (runId === undefined && event.type === 'agent-start') runId = event.runId;
        runId ??= hub?.runId;
        return `id: ${formatEventId(runId, id)}\ndata: ${JSON.stringify(encoder.encode(event, id))}\n\n`;
      }),
      endWith(END_FRAME),
      catchError((error: unknown) => of(errorFrame(error))),
    );
  });
}

/**
 * The SSE frames (text) of a run in the wire format: one `data:` message per event (`WireEvent`
 * JSON: deltas, not snapshots) with its id `<runId>:<seq>`, keep-alive comments, then
 * `event: run-end` — or `event: run-error` with the serialized error.
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
  const frames$ = eventFrames(source, options.lastEventId);
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
 * A run as a web `ReadableStream` of Server-Sent Events (UTF-8 bytes) in the wire format:
 * each event as `WireEvent` JSON in a `data:` line — a `message-update` carries its delta only,
 * so the bytes grow with the answer, not with its square — with the id `<runId>:<seq>`;
 * `: keep-alive` comments while the run is quiet, `event: run-end` when it ends, or
 * `event: run-error` with the serialized error (name, message, status — never a body or a
 * stack). The run starts with the stream and is cancelled when the stream is (the client went
 * away). Pass a `RunHub` (`shareRun`) and the client's `Last-Event-ID` to resume a reconnecting
 * client exactly; a plain run answers a `Last-Event-ID` with a `run-error`
 * (`SSEResumeRefusedError`) and is not started again. A reader more than `maxBufferedBytes`
 * behind is cut off with a `run-error` (`SSEReaderTooSlowError`).
 *
 * @param source A run, or a `RunHub` shared by many clients.
 * @param options `lastEventId`, `keepAliveMs`, `retryMs`, `maxBufferedBytes`, `scheduler`.
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
  const limit = options.maxBufferedBytes ?? DEFAULT_MAX_BUFFERED_BYTES;
  // sseFrames turns the run's error into a frame: an error of the stream is a bug, surfaced as one.
  return boundedStream(sseFrames(source, options).pipe(map((frame) => encoder.encode(frame))), {
    limit,
    size: (chunk) => chunk.byteLength,
    tooSlow: () =>
      encoder.encode(
        errorFrame(
          new SSEReaderTooSlowError(
            `This reader fell more than ${limit} bytes behind the run, so the server cut it off. ` +
              'Read faster, or raise { maxBufferedBytes } on the server.',
          ),
        ),
      ),
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
