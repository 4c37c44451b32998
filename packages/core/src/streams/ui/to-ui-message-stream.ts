import { catchError, concatMap, defer, endWith, from, map, type Observable } from 'rxjs';
import type { AgentEvent } from '../../events/agent-event.js';
import { boundedStream } from '../bounded-stream.js';
import type { RunHub } from '../share-run.js';
import { SSEReaderTooSlowError } from '../wire-errors.js';
import { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk } from './ui-message-chunk.js';
import { UIMessageMapper } from './ui-message-mapper.js';

/**
 * Options of `toUIMessageStream` and `toUIMessageStreamResponse`.
 *
 * @example
 * toUIMessageStreamResponse(run$, { messageId: 'msg-1', maxBufferedChunks: 5000 });
 */
export interface UIMessageStreamOptions {
  /** The assistant UI message's id (default: the run id). */
  messageId?: string;
  /**
   * Most chunks queued for this reader and not read yet (default 100 000): past it the reader
   * gets a last `error` chunk and is cut off; the run is not slowed down for it.
   */
  maxBufferedChunks?: number;
}

/** Default of `maxBufferedChunks`. */
export const DEFAULT_MAX_BUFFERED_CHUNKS = 100_000;

function isRunHub(source: Observable<AgentEvent> | RunHub): source is RunHub {
  return typeof (source as Partial<RunHub>).join === 'function';
}

/**
 * A run as the chunks of the Vercel AI SDK's UI message stream (an operator's worth, as an
 * Observable): see `toUIMessageStream`. A run error is an `error` chunk, not an error.
 *
 * @example
 * uiMessageChunks(runAgent(config)).subscribe((chunk) => console.log(chunk.type));
 */
export function uiMessageChunks(
  source: Observable<AgentEvent> | RunHub,
  options: Pick<UIMessageStreamOptions, 'messageId'> = {},
): Observable<UIMessageChunk> {
  return defer(() => {
    const mapper = new UIMessageMapper(options.messageId);
    // A hub's join from the start: the UI message is built from the run's first event.
    const events$ = isRunHub(source) ? source.join().pipe(map((entry) => entry.event)) : source;
    return events$.pipe(
      concatMap((event) => from(mapper.map(event))),
      catchError((error: unknown) => from(mapper.error(error))),
    );
  });
}

/**
 * A run as the Vercel AI SDK's UI message stream (protocol v1: what `readUIMessageStream`,
 * `useChat` and `createUIMessageStreamResponse` read, AI SDK 5 to 7). The whole run is one
 * assistant message; each model call a step. Text and reasoning stream as deltas; a tool call
 * is a tool part with its input, then its output — or `output-error`, or `output-denied` when a
 * gate, a guardrail or a person refused it — with rxagent's typed outcome in `toolMetadata`;
 * an approval is the SDK's `tool-approval-request` / `tool-approval-response`; a retried model
 * call resets its step; rxagent's own events (steps, warnings, sub-runs, tool progress…) are
 * `data-rxagent-<event>` parts. A run error is a last `error` chunk (name and message only).
 * Cancelling the stream cancels the run (a `RunHub` goes on for its other watchers).
 *
 * @param source A run, or a `RunHub` (`shareRun`) joined from its first event.
 * @param options `messageId`, `maxBufferedChunks`.
 * @return A `ReadableStream` of `UIMessageChunk` objects.
 *
 * @example
 * import { readUIMessageStream } from 'ai';
 * for await (const message of readUIMessageStream({ stream: toUIMessageStream(runAgent(config)) })) render(message);
 */
export function toUIMessageStream(
  source: Observable<AgentEvent> | RunHub,
  options: UIMessageStreamOptions = {},
): ReadableStream<UIMessageChunk> {
  const limit = options.maxBufferedChunks ?? DEFAULT_MAX_BUFFERED_CHUNKS;
  return boundedStream(uiMessageChunks(source, options), {
    limit,
    size: () => 1,
    tooSlow: () => ({ type: 'error', errorText: tooSlowText(limit, 'chunks', 'maxBufferedChunks') }),
  });
}

function tooSlowText(limit: number, unit: string, option: string): string {
  const error = new SSEReaderTooSlowError(
    `This reader fell more than ${limit} ${unit} behind the run, so the server cut it off. ` +
      `Read faster, or raise { ${option} } on the server.`,
  );
  return `${error.name}: ${error.message}`;
}

/**
 * A `Response` with a run as the AI SDK's UI message stream over Server-Sent Events (one
 * `data:` line of chunk JSON per chunk, then `data: [DONE]`, with the
 * `x-vercel-ai-ui-message-stream: v1` header): what `useChat`'s default transport reads from a
 * chat route. A reader more than `maxBufferedChunks` behind gets an `error` chunk and is cut off.
 *
 * @example
 * // app/api/chat/route.ts (Next.js), or a Hono route
 * export const POST = async (req: Request) => toUIMessageStreamResponse(runAgent({ model, prompt: await lastUserText(req) }));
 */
export function toUIMessageStreamResponse(
  source: Observable<AgentEvent> | RunHub,
  options: UIMessageStreamOptions & { status?: number; headers?: Record<string, string> } = {},
): Response {
  const encoder = new TextEncoder();
  const limit = options.maxBufferedChunks ?? DEFAULT_MAX_BUFFERED_CHUNKS;
  const frame = (chunk: UIMessageChunk) => encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`);
  const frames$ = uiMessageChunks(source, options).pipe(
    map(frame),
    endWith(encoder.encode('data: [DONE]\n\n')),
  );
  const body = boundedStream(frames$, {
    limit,
    size: () => 1,
    tooSlow: () => frame({ type: 'error', errorText: tooSlowText(limit, 'chunks', 'maxBufferedChunks') }),
  });
  return new Response(body, {
    status: options.status ?? 200,
    headers: { ...UI_MESSAGE_STREAM_HEADERS, ...options.headers },
  });
}
