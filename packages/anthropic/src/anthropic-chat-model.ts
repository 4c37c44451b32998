import type Anthropic from '@anthropic-ai/sdk';
import type { ChatModel, ChatRequest, ModelEvent } from '@rxagent/core';
import {
  providerEventStream,
  rateLimitFromHeaders,
  textToolNames,
  type StreamOpener,
} from '@rxagent/core/provider';
import { asyncScheduler, type Observable, type SchedulerLike } from 'rxjs';
import type { AnthropicOptions } from './anthropic.js';
import { resolveAnthropicClient, type ResolvedAnthropicClient } from './anthropic-client.js';
import { classifyAnthropicError, secretsOf } from './anthropic-error.js';
import { buildAnthropicRequest, type AnthropicRequestBody } from './build-anthropic-request.js';
import { AnthropicEventMapper, type AnthropicStreamEvent } from './map-anthropic-event.js';

/** The SDK's per-request options (not exported by name from the package root). */
type RequestOptions = NonNullable<Parameters<Anthropic['messages']['create']>[1]>;

/**
 * The `ChatModel` `anthropic()` returns. Each `stream()` subscription sends one streaming
 * Messages request (`messages.create({ stream: true })`, the raw event stream) and maps its
 * events; unsubscribing aborts the HTTP request. Besides the SDK's errors it reports a stream
 * ending without `message_stop` or cut mid-body (`PartialStreamError`) and a body silent for
 * longer than `idleTimeoutMs` (`StreamIdleError`).
 *
 * @example
 * const model = new AnthropicChatModel('claude-sonnet-4-6', { idleTimeoutMs: 30_000 });
 * model.stream({ messages: [userMessage('Hi')] }).subscribe((event) => console.log(event.type));
 */
export class AnthropicChatModel implements ChatModel {
  readonly provider = 'anthropic';
  private resolved: ResolvedAnthropicClient | undefined;
  private readonly scheduler: SchedulerLike;

  constructor(
    readonly modelId: string,
    private readonly options: AnthropicOptions = {},
  ) {
    this.scheduler = options.scheduler ?? asyncScheduler;
  }

  /** Streams one model call; cold, see the class doc. */
  stream(request: ChatRequest): Observable<ModelEvent> {
    const { scheduler, options, modelId } = this;
    const settings = { defaultMaxTokens: options.defaultMaxTokens ?? 4096 };
    const textTools = textToolNames(request);
    let resolved: ResolvedAnthropicClient | undefined;
    const send =
      (body: AnthropicRequestBody): StreamOpener<AnthropicStreamEvent> =>
      async (signal) => {
        resolved ??= this.resolved ??= resolveAnthropicClient(options);
        const requestOptions: RequestOptions = { signal, maxRetries: 0 };
        if (options.headers) requestOptions.headers = options.headers;
        // The response too: its rate-limit headers are a `rate-limit` event a limiter follows.
        const { data, response } = await resolved.client.messages.create(body, requestOptions).withResponse();
        const limits = rateLimitFromHeaders(response.headers, scheduler.now());
        return { stream: data, head: limits ? [limits] : [] };
      };
    return providerEventStream<AnthropicStreamEvent, AnthropicEventMapper>({
      provider: 'anthropic',
      label: 'Anthropic',
      scheduler,
      timeouts: { first: options.requestTimeoutMs, each: options.idleTimeoutMs ?? 60_000 },
      // The client first: a missing key fails here, before any request, and the mapper keeps
      // its credentials out of the errors of in-stream error events.
      createMapper: (timestamp) => {
        resolved = this.resolved ??= resolveAnthropicClient(options);
        return new AnthropicEventMapper(modelId, timestamp, secretsOf(resolved), textTools);
      },
      open: (signal) => send(buildAnthropicRequest(modelId, request, settings))(signal),
      // A paused turn (`pause_turn`) goes on with what the model said so far sent back.
      next: (mapper, hops) => {
        if (!mapper.paused || hops > MAX_PAUSE_CONTINUATIONS) return undefined;
        const soFar = mapper.pausedMessage();
        mapper.resume();
        return send(
          buildAnthropicRequest(modelId, { ...request, messages: [...request.messages, soFar] }, settings),
        );
      },
      classify: (error, context) =>
        classifyAnthropicError(error, {
          received: context.received,
          partial: context.partial(''),
          now: scheduler.now(),
          ...(resolved?.apiKey && { apiKey: resolved.apiKey }),
          ...(resolved?.authToken && { authToken: resolved.authToken }),
        }),
    });
  }
}

/** How many times one turn may be continued after `pause_turn` before it ends as it is. */
const MAX_PAUSE_CONTINUATIONS = 10;
