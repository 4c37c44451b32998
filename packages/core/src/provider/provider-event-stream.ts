import {
  catchError,
  concat,
  concatMap,
  defer,
  EMPTY,
  finalize,
  from,
  map,
  of,
  switchMap,
  takeWhile,
  throwError,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import { PartialStreamError, ProviderTimeoutError, StreamIdleError } from '../errors/provider-errors.js';
import { ProviderError } from '../errors/provider-error.js';
import type { AssistantMessage } from '../messages/types.js';
import type { ModelEvent } from '../model/model-event.js';
import { isConnectionCut } from './connection-cut.js';
import { streamTimeout } from './stream-timeout.js';

/**
 * A stateful translation of one provider stream's chunks into `ModelEvent`s (one per
 * subscription).
 *
 * @example
 * const mapper: ChunkMapper<ChatCompletionChunk> = new OpenAIChatChunkMapper('gpt-4o-mini', scheduler.now());
 */
export interface ChunkMapper<Chunk> {
  /** Events for one chunk; throws for an error the server reported inside the stream. */
  map(chunk: Chunk): ModelEvent[];
  /** True once the stream's terminal signal arrived (the message is complete). */
  readonly terminated: boolean;
  /** True when nothing more needs to be read (the rest of the body is dropped). */
  readonly done: boolean;
  /** The closing events (open tool calls, usage, finish); called once, after `terminated`. */
  flush(): ModelEvent[];
  /** The message as far as it arrived, with `why` as its error message. */
  partial(why: string): AssistantMessage;
}

/**
 * Sends one request and resolves once its response head arrived, with the SDK's stream of
 * chunks. It may throw (a missing key) before sending anything.
 *
 * @example
 * const open: StreamOpener<ChatCompletionChunk> = (signal) => client.chat.completions.create(body, { signal, maxRetries: 0 });
 */
export type StreamOpener<Chunk> = (
  signal: AbortSignal,
) => Promise<AsyncIterable<Chunk> | OpenedStream<Chunk>>;

/**
 * An opened stream with the events its response head gave (e.g. the provider's rate-limit
 * headers as a `rate-limit` event), emitted before its first chunk.
 *
 * @example
 * const opened: OpenedStream<Chunk> = { stream, head: limits ? [limits] : [] };
 */
export interface OpenedStream<Chunk> {
  readonly stream: AsyncIterable<Chunk>;
  readonly head: readonly ModelEvent[];
}

function openedStream<Chunk>(opened: AsyncIterable<Chunk> | OpenedStream<Chunk>): OpenedStream<Chunk> {
  return 'head' in opened && 'stream' in opened ? opened : { stream: opened, head: [] };
}

/**
 * What a classifier knows about the call that failed.
 *
 * @example
 * const classify = (error: unknown, context: StreamErrorContext) => context.received ? partialError(context.partial('cut')) : networkError(error);
 */
export interface StreamErrorContext {
  /** Whether any chunk of a body had arrived. */
  readonly received: boolean;
  /** The message as far as it arrived. */
  partial(why: string): AssistantMessage;
}

/**
 * Everything `providerEventStream` needs for one model call.
 *
 * @example
 * const source: ProviderStreamSource<ChatCompletionChunk> = {
 *   label: 'OpenAI', provider: 'openai', scheduler, timeouts: { each: 60_000 },
 *   open: (signal) => client.chat.completions.create(body, { signal, maxRetries: 0 }),
 *   createMapper: (now) => new OpenAIChatChunkMapper(modelId, now),
 *   classify: (error, context) => classifyOpenAIError(error, context),
 * };
 */
export interface ProviderStreamSource<Chunk, M extends ChunkMapper<Chunk> = ChunkMapper<Chunk>> {
  /** The provider's name, as errors carry it (`'openai'`). */
  provider: string;
  /** How messages name it (`'OpenAI'`). */
  label: string;
  scheduler: SchedulerLike;
  /**
   * `first`: the longest wait for the response head (`requestTimeoutMs`; none when undefined,
   * the SDK's own then applies); `each`: the longest silence of the body from the head on, the
   * wait for its first chunk included (`idleTimeoutMs`). Zero or undefined is no limit.
   */
  timeouts: { first?: number; each?: number };
  createMapper(timestamp: number): M;
  open: StreamOpener<Chunk>;
  /** One typed error for whatever the SDK or the mapper threw (provider errors pass as they are). */
  classify(error: unknown, context: StreamErrorContext): unknown;
  /**
   * After a terminated stream: the request that continues the same message (Anthropic's
   * `pause_turn`), or undefined when the message is complete. `hops` counts the requests so far.
   */
  next?(mapper: M, hops: number): StreamOpener<Chunk> | undefined;
}

/**
 * The cold `ModelEvent` stream of one provider call, the plumbing every adapter shares. On
 * subscribe it sends the request; unsubscribing (or any failure) aborts it. It adds what the
 * SDKs lack, all on the scheduler: a deadline for the response head and an idle limit on the
 * body (`timeout({ first, each })` semantics, `ProviderTimeoutError` / `StreamIdleError` with
 * the partial message); a `PartialStreamError` with the partial message when the body ends
 * before the terminal signal; a connection cut after the terminal signal is no error (it only
 * loses what follows, like a usage chunk); everything else goes through `classify`.
 *
 * @param source The request, the mapper, the limits and the classifier.
 * @return A cold stream of the call's events, ending with the mapper's `finish`.
 *
 * @example
 * import { providerEventStream } from '@rxagent/core/provider';
 *
 * stream(request) {
 *   return providerEventStream({ label: 'OpenAI', provider: 'openai', scheduler, timeouts: { each: 60_000 },
 *     open: (signal) => client.chat.completions.create(body(request), { signal, maxRetries: 0 }),
 *     createMapper: (now) => new OpenAIChatChunkMapper(modelId, now), classify });
 * }
 */
export function providerEventStream<Chunk, M extends ChunkMapper<Chunk>>(
  source: ProviderStreamSource<Chunk, M>,
): Observable<ModelEvent> {
  return defer(() => {
    const { scheduler, label, provider } = source;
    const mapper = source.createMapper(scheduler.now());
    let received = 0;
    const context: StreamErrorContext = {
      get received() {
        return received > 0;
      },
      partial: (why) => mapper.partial(why),
    };
    const { first, each } = source.timeouts;

    const headTimedOut = () =>
      new ProviderTimeoutError(
        `No response from ${label} within ${first} ms; the request was aborted. Raise requestTimeoutMs or try again.`,
        { provider },
      );
    const idle = () => {
      const why = `The ${label} stream sent nothing for ${each} ms`;
      return new StreamIdleError(`${why}; the request was aborted. Raise idleTimeoutMs for slow models.`, {
        provider,
        idleMs: each,
        partial: mapper.partial(why),
      });
    };

    const hop = (open: StreamOpener<Chunk>): Observable<ModelEvent> =>
      defer(() => {
        const abort = new AbortController();
        return defer(async () => openedStream(await open(abort.signal))).pipe(
          streamTimeout<OpenedStream<Chunk>>({ first, scheduler, with: headTimedOut }),
          switchMap(({ stream, head }) =>
            concat(
              of(head),
              from(stream).pipe(
                streamTimeout<Chunk>({ each, scheduler, with: idle }),
                map((chunk) => {
                  received++;
                  return mapper.map(chunk);
                }),
              ),
            ),
          ),
          takeWhile(() => !mapper.done, true),
          concatMap((events) => events),
          finalize(() => abort.abort()),
        );
      });

    const end = (hops: number): Observable<ModelEvent> =>
      defer(() => {
        if (!mapper.terminated) {
          const why = `The ${label} stream ended before its terminal event (after ${received} chunks)`;
          return throwError(
            () =>
              new PartialStreamError(`${why}; the partial message is attached.`, {
                provider,
                partial: mapper.partial(why),
              }),
          );
        }
        const next = source.next?.(mapper, hops);
        return next ? run(next, hops + 1) : from(mapper.flush());
      });

    const run = (open: StreamOpener<Chunk>, hops: number): Observable<ModelEvent> =>
      concat(
        hop(open).pipe(
          catchError((error: unknown) => {
            // The message was complete: a cut after it (before [DONE] or the usage chunk) loses nothing.
            if (mapper.terminated && isConnectionCut(error)) return EMPTY;
            return throwError(() =>
              ProviderError.isInstance(error) ? error : source.classify(error, context),
            );
          }),
        ),
        end(hops),
      );

    return run(source.open, 1);
  });
}
