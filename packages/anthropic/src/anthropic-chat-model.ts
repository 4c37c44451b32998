import type Anthropic from '@anthropic-ai/sdk';
import {
  PartialStreamError,
  ProviderTimeoutError,
  StreamIdleError,
  type AssistantMessage,
  type ChatModel,
  type ChatRequest,
  type ModelEvent,
} from '@rxagent/core';
import { rateLimitFromHeaders, textToolNames } from '@rxagent/core/provider';
import { asyncScheduler, Observable, type SchedulerLike, type Subscriber } from 'rxjs';
import type { AnthropicOptions } from './anthropic.js';
import { resolveAnthropicClient, type ResolvedAnthropicClient } from './anthropic-client.js';
import { classifyAnthropicError, secretsOf } from './anthropic-error.js';
import { buildAnthropicRequest, type AnthropicRequestBody } from './build-anthropic-request.js';
import { startIdleTimer, type IdleTimer } from './idle-timer.js';
import { AnthropicEventMapper } from './map-anthropic-event.js';

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
    return new Observable<ModelEvent>((subscriber) => {
      let resolved: ResolvedAnthropicClient;
      let body: AnthropicRequestBody;
      const settings = { defaultMaxTokens: this.options.defaultMaxTokens ?? 4096 };
      // A paused turn (`pause_turn`) goes on with what the model said so far sent back.
      const continuation = (soFar: AssistantMessage) =>
        buildAnthropicRequest(this.modelId, { ...request, messages: [...request.messages, soFar] }, settings);
      try {
        resolved = this.resolved ??= resolveAnthropicClient(this.options);
        body = buildAnthropicRequest(this.modelId, request, settings);
      } catch (error) {
        subscriber.error(classifyAnthropicError(error, { received: false, now: this.scheduler.now() }));
        return undefined;
      }
      const controller = new AbortController();
      const call: CallState = { controller, stopped: false };
      // A bug in the mapping must still end the stream, not hang it.
      this.pump(resolved, body, call, subscriber, continuation, textToolNames(request)).catch(
        (error: unknown) => subscriber.error(error),
      );
      return () => {
        call.stopped = true;
        call.timer?.stop();
        controller.abort();
      };
    });
  }

  private async pump(
    { client, apiKey, authToken }: ResolvedAnthropicClient,
    body: AnthropicRequestBody,
    call: CallState,
    subscriber: Subscriber<ModelEvent>,
    continuation: (soFar: AssistantMessage) => AnthropicRequestBody,
    textTools: ReadonlySet<string>,
  ): Promise<void> {
    const { scheduler, options } = this;
    const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
    const mapper = new AnthropicEventMapper(
      this.modelId,
      scheduler.now(),
      secretsOf({ apiKey, authToken }),
      textTools,
    );
    const requestOptions: RequestOptions = { signal: call.controller.signal, maxRetries: 0 };
    if (options.headers) requestOptions.headers = options.headers;
    const timeoutError = () =>
      call.timedOut === 'head'
        ? new ProviderTimeoutError(
            `Anthropic sent no response head within ${options.requestTimeoutMs} ms; raise requestTimeoutMs if needed.`,
            { provider: 'anthropic' },
          )
        : new StreamIdleError(
            `The Anthropic stream sent nothing for ${idleTimeoutMs} ms; raise idleTimeoutMs if the model is slow.`,
            { provider: 'anthropic', idleMs: idleTimeoutMs, partial: mapper.partial() },
          );
    const abortFor = (reason: 'head' | 'idle') => () => {
      call.timedOut = reason;
      call.controller.abort();
    };
    try {
      // Both timeouts run on the scheduler (an idle timer never touched is a plain timeout);
      // the SDK's own real-time timeout (10 min) stays a backstop.
      const head =
        options.requestTimeoutMs === undefined
          ? undefined
          : startIdleTimer(scheduler, options.requestTimeoutMs, abortFor('head'));
      call.timer = head;
      let next = body;
      for (let pauses = 0; ; pauses++) {
        const { data: stream, response } = await client.messages.create(next, requestOptions).withResponse();
        head?.stop();
        if (call.stopped) return;
        const limits = rateLimitFromHeaders(response.headers, scheduler.now());
        if (limits) subscriber.next(limits);
        const timer = startIdleTimer(scheduler, idleTimeoutMs, abortFor('idle'));
        call.timer = timer;
        for await (const event of stream) {
          if (call.stopped) return;
          timer.touch();
          for (const out of mapper.map(event)) subscriber.next(out);
          if (mapper.finished) break; // leaving the loop releases the connection
        }
        timer.stop();
        if (call.stopped) return;
        if (!mapper.finished) break;
        if (!mapper.paused) return subscriber.complete();
        if (pauses >= MAX_PAUSE_CONTINUATIONS) {
          for (const out of mapper.endPaused()) subscriber.next(out);
          return subscriber.complete();
        }
        next = continuation(mapper.pausedMessage());
        mapper.resume();
      }
      // The SDK's iterator ends quietly both on a clean EOF and on our own (idle) abort.
      const partial = mapper.partial();
      subscriber.error(
        call.timedOut
          ? timeoutError()
          : new PartialStreamError('The Anthropic stream ended without message_stop.', {
              provider: 'anthropic',
              partial,
            }),
      );
    } catch (error) {
      if (call.stopped) return;
      const context = { received: mapper.received, partial: mapper.partial(), now: scheduler.now() };
      subscriber.error(
        call.timedOut ? timeoutError() : classifyAnthropicError(error, { ...context, apiKey, authToken }),
      );
    } finally {
      call.timer?.stop();
    }
  }
}

/** How many times one turn may be continued after `pause_turn` before it ends as it is. */
const MAX_PAUSE_CONTINUATIONS = 10;

/** What the subscription and the pump share about one call. */
interface CallState {
  controller: AbortController;
  /** Unsubscribed: emit nothing more. */
  stopped: boolean;
  /** Which timer fired (and aborted the request). */
  timedOut?: 'head' | 'idle';
  timer?: IdleTimer;
}
