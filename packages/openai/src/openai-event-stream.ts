import type { Observable, SchedulerLike } from 'rxjs';
import type OpenAI from 'openai';
import type { ModelEvent } from '@rxagent/core';
import { providerEventStream, rateLimitFromHeaders, type ChunkMapper } from '@rxagent/core/provider';
import { classifyOpenAIError } from './openai-error.js';

export type { ChunkMapper } from '@rxagent/core/provider';

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
 * The cold `ModelEvent` stream of one OpenAI SDK call, on the core's shared plumbing
 * (`providerEventStream`: head and idle timeouts on the scheduler, abort on unsubscribe,
 * partial streams): on subscribe it connects (a missing key is an `AuthError`, no request)
 * and sends the request with the SDK's retries off; every failure becomes one typed error
 * through `classifyOpenAIError`, with the API key kept out of it.
 *
 * @example
 * return openaiEventStream({ modelId, scheduler, idleTimeoutMs: 60_000, connect, requestOptions: {},
 *   open: (client, options) => client.chat.completions.create(body, options),
 *   createMapper: (now) => new OpenAIChatChunkMapper(modelId, now) });
 */
export function openaiEventStream<Chunk>(source: OpenAIStreamSource<Chunk>): Observable<ModelEvent> {
  let secret: string | undefined;
  return providerEventStream<Chunk, ChunkMapper<Chunk>>({
    provider: 'openai',
    label: 'OpenAI',
    scheduler: source.scheduler,
    timeouts: { first: source.requestTimeoutMs, each: source.idleTimeoutMs },
    createMapper: (timestamp) => source.createMapper(timestamp),
    open: (signal) => {
      const handle = source.connect();
      secret = handle.secret;
      const opened = source.open(handle.client, { ...source.requestOptions, signal, maxRetries: 0 });
      return withHead(opened, source.scheduler);
    },
    classify: (error, context) =>
      classifyOpenAIError(error, {
        now: source.scheduler.now(),
        modelId: source.modelId,
        secret,
        received: context.received,
        partial: (why) => context.partial(why),
      }),
  });
}

/**
 * The stream with the rate-limit event its response headers give (a limiter follows them), when
 * `opened` is the SDK's APIPromise (a plain Promise has no response).
 */
async function withHead<T>(
  opened: Promise<T>,
  scheduler: SchedulerLike,
): Promise<{ stream: T; head: ModelEvent[] }> {
  const api = opened as Promise<T> & {
    withResponse?: () => Promise<{ data: T; response: { headers: { get(name: string): string | null } } }>;
  };
  if (typeof api.withResponse !== 'function') return { stream: await opened, head: [] };
  const { data, response } = await api.withResponse();
  const limits = rateLimitFromHeaders(response.headers, scheduler.now());
  return { stream: data, head: limits ? [limits] : [] };
}
