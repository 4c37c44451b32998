import { Observable, type SchedulerLike } from 'rxjs';
import type OpenAI from 'openai';
import { PartialStreamError, ProviderTimeoutError, StreamIdleError } from '@rxagent/core';
import type { AssistantMessage, ModelEvent } from '@rxagent/core';
import { rateLimitFromHeaders } from '@rxagent/core/provider';
import { IdleTimeout } from './idle-timeout.js';
import { classifyOpenAIError, isConnectionCut } from './openai-error.js';

/**
 * A stateful translation of one API's stream chunks into `ModelEvent`s.
 *
 * @example
 * const mapper: ChunkMapper<ChatCompletionChunk> = new OpenAIChatChunkMapper('gpt-4o-mini', Date.now());
 */
export interface ChunkMapper<Chunk> {
  /** Events for one chunk; throws `InStreamError` for an error the server reported. */
  map(chunk: Chunk): ModelEvent[];
  /** True once the stream's terminal signal arrived (the message is complete). */
  readonly terminated: boolean;
  /** True when nothing more needs to be read. */
  readonly done: boolean;
  /** The closing events (open tool calls, usage, finish); only valid once `terminated`. */
  flush(): ModelEvent[];
  /** The message as far as it arrived, with `errorMessage` set to `why`. */
  partial(why: string): AssistantMessage;
}

/**
 * The client and the key it uses (to keep the key out of error messages).
 *
 * @example
 * const handle: ClientHandle = { client: new OpenAI({ apiKey }), secret: apiKey };
 */
export interface ClientHandle {
  client: OpenAI;
  secret?: string;
}

/**
 * Per-request options passed to the SDK.
 *
 * @example
 * client.chat.completions.create(body, { signal: abort.signal, maxRetries: 0 } satisfies SdkRequestOptions);
 */
export interface SdkRequestOptions {
  signal: AbortSignal;
  maxRetries: 0;
  headers?: Record<string, string>;
}

/**
 * Everything `openaiEventStream` needs for one call.
 *
 * @example
 * const source: OpenAIStreamSource<ChatCompletionChunk> = { modelId, ...settings, open, createMapper };
 */
export interface OpenAIStreamSource<Chunk> {
  modelId: string;
  scheduler: SchedulerLike;
  idleTimeoutMs: number;
  /** Longest wait for the response head (none when undefined). */
  requestTimeoutMs?: number;
  /** Returns the client; throws `AuthError` when there is no key. */
  connect(): ClientHandle;
  /** Sends the request; resolves once the response head arrived. */
  open(client: OpenAI, options: SdkRequestOptions): Promise<AsyncIterable<Chunk>>;
  createMapper(timestamp: number): ChunkMapper<Chunk>;
  requestOptions: Omit<SdkRequestOptions, 'signal' | 'maxRetries'>;
}

/**
 * The cold `ModelEvent` stream of one SDK call. On subscribe it sends the request (no SDK
 * retries); unsubscribing aborts it. It adds what the SDK lacks: a timeout on the response
 * head and an idle timeout on the body (both on the scheduler), a `PartialStreamError` when
 * the stream ends before its terminal signal or is cut, and one typed error per failure.
 *
 * @example
 * return openaiEventStream({ modelId, scheduler, idleTimeoutMs: 60_000, connect, requestOptions: {},
 *   open: (client, options) => client.chat.completions.create(body, options),
 *   createMapper: (now) => new OpenAIChatChunkMapper(modelId, now) });
 */
export function openaiEventStream<Chunk>(source: OpenAIStreamSource<Chunk>): Observable<ModelEvent> {
  return new Observable<ModelEvent>((subscriber) => {
    const abort = new AbortController();
    const mapper = source.createMapper(source.scheduler.now());
    let received = 0;
    let secret: string | undefined;

    const fail = (error: unknown) => {
      headTimeout.stop();
      idle.stop();
      abort.abort();
      subscriber.error(error);
    };
    const idle = new IdleTimeout(source.idleTimeoutMs, source.scheduler, () => {
      const why = `The OpenAI stream sent nothing for ${source.idleTimeoutMs} ms`;
      fail(
        new StreamIdleError(`${why}; the request was aborted. Raise idleTimeoutMs for slow models.`, {
          provider: 'openai',
          idleMs: source.idleTimeoutMs,
          partial: mapper.partial(why),
        }),
      );
    });
    const headTimeout = new IdleTimeout(source.requestTimeoutMs ?? 0, source.scheduler, () =>
      fail(
        new ProviderTimeoutError(
          `No response from the OpenAI API within ${source.requestTimeoutMs} ms; the request was aborted. ` +
            'Raise requestTimeoutMs or try again.',
          { provider: 'openai' },
        ),
      ),
    );
    const finish = () => {
      if (!mapper.terminated) {
        const why = `The OpenAI stream ended before its terminal event (after ${received} chunks)`;
        throw new PartialStreamError(`${why}; the partial message is attached.`, {
          provider: 'openai',
          partial: mapper.partial(why),
        });
      }
      for (const event of mapper.flush()) subscriber.next(event);
      idle.stop();
      subscriber.complete();
    };

    const run = async () => {
      headTimeout.start();
      const handle = source.connect();
      secret = handle.secret;
      const opened = source.open(handle.client, {
        ...source.requestOptions,
        signal: abort.signal,
        maxRetries: 0,
      });
      // The SDK's APIPromise also gives the response, whose rate-limit headers a limiter follows.
      const { data: stream, response } = await withResponse(opened);
      headTimeout.stop();
      const limits = rateLimitFromHeaders(response?.headers, source.scheduler.now());
      if (limits && !subscriber.closed) subscriber.next(limits);
      idle.start();
      for await (const chunk of stream) {
        if (subscriber.closed) return;
        idle.touch();
        received++;
        for (const event of mapper.map(chunk)) {
          if (subscriber.closed) return;
          subscriber.next(event);
        }
        if (mapper.done) break;
      }
      if (!subscriber.closed) finish();
    };

    run().catch((error: unknown) => {
      if (subscriber.closed) return;
      // The message was complete: a cut after it (before [DONE] or the usage chunk) loses nothing.
      if (mapper.terminated && isConnectionCut(error)) return finish();
      fail(
        classifyOpenAIError(error, {
          now: source.scheduler.now(),
          modelId: source.modelId,
          secret,
          received: received > 0,
          partial: (why) => mapper.partial(why),
        }),
      );
    });

    return () => {
      headTimeout.stop();
      idle.stop();
      abort.abort();
    };
  });
}

/** The stream with its response when `opened` is the SDK's APIPromise (a plain Promise has none). */
async function withResponse<T>(
  opened: Promise<T>,
): Promise<{ data: T; response?: { headers: { get(name: string): string | null } } }> {
  const api = opened as Promise<T> & { withResponse?: () => Promise<{ data: T; response: Response }> };
  return typeof api.withResponse === 'function' ? api.withResponse() : { data: await opened };
}
