import { asyncScheduler, catchError, defer, map, Subject, tap, throwError } from 'rxjs';
import type { Observable, SchedulerLike } from 'rxjs';
import { AgentConfigError } from '../errors/agent-errors.js';
import { redactError } from '../errors/redact-error.js';
import { serializeError, type SerializedError } from '../errors/serialize-error.js';
import type { ChatModel, ChatRequest } from './chat-model.js';
import { failoverReason, type FailoverReason } from './failover-reason.js';
import type { ModelEvent } from './model-event.js';
import { portableTranscript } from './portable-transcript.js';

/**
 * What a fallback model reports: a move to the next model, or which model answered a call.
 *
 * @example
 * model.events$.subscribe((e) => e.type === 'failover' && console.warn(`${e.from} → ${e.to}: ${e.reason}`));
 */
export type FallbackEvent =
  | {
      type: 'failover';
      /** `provider/modelId` of the model that failed. */
      from: string;
      /** `provider/modelId` of the model tried next (absent when the failure came mid-stream). */
      to?: string;
      reason: FailoverReason;
      error: SerializedError;
    }
  | { type: 'answered'; provider: string; modelId: string; index: number };

/**
 * Options of `fallbackModel`.
 *
 * @example
 * fallbackModel([primary, secondary], { retryPrimaryAfterMs: 30_000, scheduler });
 */
export interface FallbackModelOptions {
  /**
   * How long a model that failed over is skipped by later calls before it is tried first again
   * (default 60 000 ms). `0` starts every call with the primary.
   */
  retryPrimaryAfterMs?: number;
  /** Where the cool-down is measured (default `asyncScheduler`): use the run's scheduler. */
  scheduler?: SchedulerLike;
}

/**
 * A `ChatModel` that answers with the first of its models that works, with `events$`
 * reporting failovers and which model answered.
 *
 * @example
 * const model: FallbackModel = fallbackModel([anthropic('claude-sonnet-4-5'), openai('gpt-4o')]);
 * model.events$.subscribe(console.log);
 */
export interface FallbackModel extends ChatModel {
  readonly models: readonly ChatModel[];
  /** Hot: failovers and answers of every call made after subscribing. */
  readonly events$: Observable<FallbackEvent>;
}

const nameOf = (model: ChatModel) => `${model.provider}/${model.modelId}`;

/**
 * A `ChatModel` over several models that moves to the next one when a call fails with a
 * failover-eligible error (`failoverReason`: rate limit, overloaded, timeout, stream idle,
 * network, partial stream, 5xx — never auth, context overflow or an abort) before the model
 * emitted anything. A failure after events were emitted is passed on (the core's retry
 * discards the partial message) and the model is marked failed, so the retry goes to the next
 * model. A failed model is skipped for `retryPrimaryAfterMs`. The answer's `provider` and
 * `model` name the model that answered; the transcript sent to each model is made portable
 * (`portableTranscript`). The core retries the fallback model as a whole: give it the retries,
 * not its members.
 *
 * @example
 * const model = fallbackModel([anthropic('claude-sonnet-4-5'), openai('gpt-4o')], { retryPrimaryAfterMs: 60_000 });
 * runAgent({ model, prompt: 'Hello' }).subscribe(console.log);
 */
export function fallbackModel(
  models: readonly ChatModel[],
  options: FallbackModelOptions = {},
): FallbackModel {
  if (!(models as unknown) || typeof models.length !== 'number' || models.length === 0) {
    throw new AgentConfigError(
      'fallbackModel needs at least one model: fallbackModel([primary, secondary]).',
    );
  }
  const cooldown = options.retryPrimaryAfterMs ?? 60_000;
  if (!(cooldown >= 0)) {
    throw new AgentConfigError(
      `fallbackModel: retryPrimaryAfterMs must be 0 or more, got ${String(cooldown)}.`,
    );
  }
  const scheduler = options.scheduler ?? asyncScheduler;
  const failedAt = new Map<ChatModel, number>();
  const events = new Subject<FallbackEvent>();

  /** The models in the order a call tries them: those not cooling down first, in their order. */
  const order = (): ChatModel[] => {
    const now = scheduler.now();
    const cooling = (m: ChatModel) => {
      const at = failedAt.get(m);
      return at !== undefined && now - at < cooldown;
    };
    return [...models.filter((m) => !cooling(m)), ...models.filter(cooling)];
  };

  const attempt = (request: ChatRequest, queue: readonly ChatModel[], k: number): Observable<ModelEvent> => {
    const member = queue[k]!;
    let emitted = false;
    return defer(() =>
      member.stream({ ...request, messages: portableTranscript(request.messages, member.provider) }),
    ).pipe(
      map((event) => (event?.type === 'finish' ? named(event, member) : event)),
      tap((event) => {
        // The provider's rate-limit headers come before any content: the call can still move on.
        if (event?.type !== 'rate-limit') emitted = true;
        if (event?.type === 'finish') {
          failedAt.delete(member);
          events.next({
            type: 'answered',
            provider: member.provider,
            modelId: member.modelId,
            index: models.indexOf(member),
          });
        }
      }),
      catchError((raw: unknown) => {
        const error = redactError(raw, member.secrets);
        const reason = failoverReason(error);
        if (reason === undefined) return throwError(() => error);
        failedAt.set(member, scheduler.now());
        const next = emitted ? undefined : queue[k + 1];
        events.next({
          type: 'failover',
          from: nameOf(member),
          ...(next ? { to: nameOf(next) } : {}),
          reason,
          error: serializeError(error),
        });
        return next ? attempt(request, queue, k + 1) : throwError(() => error);
      }),
    );
  };

  const model = {
    get provider() {
      return order()[0]!.provider;
    },
    get modelId() {
      return order()[0]!.modelId;
    },
    models: [...models],
    events$: events.asObservable(),
    stream: (request: ChatRequest) => defer(() => attempt(request, order(), 0)),
  };
  // Every member's secrets, not enumerable: JSON.stringify(model) must not print them.
  return Object.defineProperty(model, 'secrets', {
    value: Object.freeze([...new Set(models.flatMap((m) => m.secrets ?? []))]),
    enumerable: false,
  });
}

/** The finish event with the answering model's names filled in where the adapter left them out. */
function named(event: Extract<ModelEvent, { type: 'finish' }>, member: ChatModel): ModelEvent {
  const message = event.message;
  if (!message || (message.provider && message.model)) return event;
  return {
    ...event,
    message: {
      ...message,
      provider: message.provider || member.provider,
      model: message.model || member.modelId,
    },
  };
}
