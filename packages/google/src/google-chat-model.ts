import type { GenerateContentResponse } from '@google/genai';
import type { ChatModel, ChatRequest, ModelEvent } from '@rxagent/core';
import { providerEventStream, textToolNames } from '@rxagent/core/provider';
import { asyncScheduler, type Observable, type SchedulerLike } from 'rxjs';
import { buildGoogleRequest } from './build-google-request.js';
import { resolveGoogleClient, type ResolvedGoogleClient } from './google-client.js';
import { classifyGoogleError } from './google-error.js';
import type { GoogleOptions } from './google-options.js';
import { GoogleChunkMapper } from './map-google-chunk.js';

/**
 * The `ChatModel` `google()` returns. Each `stream()` subscription sends one
 * `generateContentStream` request through `@google/genai` (Gemini's SSE stream) and maps its
 * chunks on the core's shared plumbing: unsubscribing aborts the request, a body silent for
 * `idleTimeoutMs` is a `StreamIdleError`, a stream that ends without a finish reason a
 * `PartialStreamError`, every failure one typed error with the API key removed.
 *
 * @example
 * const model = new GoogleChatModel('gemini-2.5-flash', { apiKey: process.env.GEMINI_API_KEY });
 * model.stream({ messages: [userMessage('Hi')] }).subscribe((event) => console.log(event.type));
 */
export class GoogleChatModel implements ChatModel {
  readonly provider = 'google';
  private resolved: ResolvedGoogleClient | undefined;
  private readonly scheduler: SchedulerLike;

  constructor(
    readonly modelId: string,
    private readonly options: GoogleOptions = {},
  ) {
    this.scheduler = options.scheduler ?? asyncScheduler;
  }

  /** Streams one model call; cold: the request starts on subscribe, unsubscribing aborts it. */
  stream(request: ChatRequest): Observable<ModelEvent> {
    const { scheduler, options, modelId } = this;
    // What the last request of this stream learned (subscriptions run one after the other: retries).
    let secrets: readonly string[] = [];
    let head: Headers | undefined;
    return providerEventStream<GenerateContentResponse, GoogleChunkMapper>({
      provider: 'google',
      label: 'Gemini',
      scheduler,
      timeouts: { first: options.requestTimeoutMs, each: options.idleTimeoutMs ?? 60_000 },
      createMapper: (timestamp) => new GoogleChunkMapper(modelId, timestamp, textToolNames(request)),
      open: (signal) => {
        const resolved = (this.resolved ??= resolveGoogleClient(options));
        secrets = resolved.secrets;
        head = undefined;
        // The platform's fetch, given explicitly: its response head is kept (a 429's
        // `retry-after`), and the SDK's own undici dispatcher, which needs the process's global
        // undici state, stays out of the way (our limits run on the scheduler).
        const recordHead: typeof fetch = async (input, init) => {
          const response = await fetch(input, init);
          head = response.headers;
          return response;
        };
        const params = buildGoogleRequest(modelId, request);
        params.config = {
          ...params.config,
          abortSignal: signal,
          httpOptions: { ...(options.headers && { headers: options.headers }), fetch: recordHead },
        };
        return resolved.client.models.generateContentStream(params);
      },
      classify: (error, context) =>
        classifyGoogleError(error, {
          received: context.received,
          partial: context.partial('failed'),
          secrets,
          ...(head && { headers: head }),
          now: scheduler.now(),
        }),
    });
  }
}
