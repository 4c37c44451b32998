import { Observable, type Subscriber } from 'rxjs';
import { chainedObserver, type ChainHandlers } from '../util/chained-observer.js';
import { PartialStreamError } from '../errors/provider-errors.js';
import type { Turn } from '../turn/turn.js';
import type { LoopItem } from '../turn/loop-item.js';
import type { AssistantMessage, UserMessage } from '../messages/types.js';
import type { ChatModel, ChatRequest } from '../model/chat-model.js';
import { MessageBuilder } from '../model/message-builder.js';
import type { ModelEvent } from '../model/model-event.js';
import { priceMessage } from '../cost/price-message.js';
import { finalizeAssistantMessage, LENGTH_RECOVERY_TEXT } from './assistant-message.js';
import type { EagerCalls } from './eager-calls.js';
import { callIdsInUse, providerMessages } from './run-call-ids.js';

/** Where the run keeps the models it already warned about as unpriced (one warning each). */
const UNPRICED = 'prices.unpriced';

/**
 * One attempt of a model call: subscribes the model's stream for `request` and folds it into
 * the assistant message, emitting `message-start` (at the first event), a `message-update` per
 * delta, then — when the stream completes after its `finish` — `message-end` and the turn
 * with the message. A stream that completes without `finish` errors with
 * `PartialStreamError`. The stream is subscribed through RxJS's own subscriber, so whatever a
 * misbehaving stream sends after it completed or failed is ignored; events after `finish` are
 * ignored too. With `eager`, a call to an eager tool starts when its arguments are complete (its
 * `tool-start` among the deltas); a failed or cut attempt aborts those calls, a complete one
 * hands them on with its turn.
 *
 * @example
 * modelAttempt(turn, model, buildRequest(turn, turn.modelMessages)).subscribe((item) => console.log(item.type));
 */
export function modelAttempt(
  turn: Turn,
  model: ChatModel,
  request: ChatRequest,
  eager?: EagerCalls,
): Observable<LoopItem> {
  return new Observable<LoopItem>((subscriber) => {
    const attempt = new Attempt(turn, model, subscriber, eager);
    eager?.open(subscriber);
    // The provider reads its own tool-call ids back; the run keeps its run-unique ones.
    const messages = providerMessages(turn.log, request.messages, turn.modelLog);
    model
      .stream(messages === request.messages ? request : { ...request, messages })
      .subscribe(chainedObserver<ModelEvent>(subscriber, attempt));
    // Cut before its message was complete: its eager calls are aborted.
    if (!eager) return undefined;
    return () => {
      if (!attempt.released) eager.drop();
    };
  });
}

/**
 * One attempt's fold of the model's stream, as an object rather than closures: a pending run holds
 * one while its model thinks (the bench's heap-per-run rows). The message is made at the first
 * event, with the time the attempt started.
 */
class Attempt implements ChainHandlers<ModelEvent> {
  private builder?: MessageBuilder;
  private finished?: Partial<AssistantMessage>;
  private readonly startedAt: number;
  /** The message is complete and its eager calls went on with the turn. */
  released = false;

  constructor(
    private readonly turn: Turn,
    private readonly model: ChatModel,
    private readonly subscriber: Subscriber<LoopItem>,
    private readonly eager?: EagerCalls,
  ) {
    this.startedAt = turn.run.scheduler.now();
  }

  /** The message, announced with `message-start` when it is first needed. */
  private started(): MessageBuilder {
    if (this.builder) return this.builder;
    const builder = (this.builder = new MessageBuilder(
      this.model.provider,
      this.model.modelId,
      this.startedAt,
    ));
    this.subscriber.next({ type: 'message-start', message: builder.message });
    return builder;
  }

  next(event: ModelEvent): void {
    if (this.finished) return;
    try {
      if (event?.type === 'finish') {
        const given: Partial<AssistantMessage> = event.message ?? {};
        this.finished = { ...given, stopReason: given.stopReason ?? event.reason };
        return;
      }
      const builder = this.started();
      const delta = builder.apply(event);
      if (delta) this.subscriber.next({ type: 'message-update', message: builder.message, delta });
      if (this.eager && (event.type === 'toolcall-start' || event.type === 'toolcall-end')) {
        this.eager.see(event);
      }
    } catch (error) {
      // A throw here would escape to RxJS's unhandled-error hook and leave the run hanging.
      this.error(error);
    }
  }

  /** A failed attempt's eager calls are aborted before the failure goes on (a retry follows it). */
  error(error: unknown): void {
    this.eager?.drop();
    this.subscriber.error(error);
  }

  complete(): void {
    const { subscriber, model, turn, finished } = this;
    const streamed =
      this.builder?.message ?? new MessageBuilder(model.provider, model.modelId, this.startedAt).message;
    if (!finished) {
      this.error(
        new PartialStreamError(`The ${model.provider} stream ended without a finish event.`, {
          partial: streamed,
          provider: model.provider,
        }),
      );
      return;
    }
    let message: AssistantMessage;
    try {
      message = finalizeAssistantMessage(
        finished,
        streamed,
        this.startedAt,
        turn.step,
        callIdsInUse(turn.log),
      );
    } catch (error) {
      this.error(error);
      return;
    }
    const warned = turn.operatorState<readonly string[]>(UNPRICED) ?? [];
    const priced = priceMessage(turn.run.settings.prices, message, model.modelId, warned);
    message = priced.message;
    const base = priced.unpriced ? turn.withOperatorState(UNPRICED, [...warned, priced.unpriced]) : turn;
    this.started();
    this.released = true;
    let next = withLengthRecovery(base, message);
    // The calls started early go on with the turn, to `executeTools`.
    if (this.eager?.release()) next = next.withEagerCalls(this.eager);
    if (priced.warning) subscriber.next(priced.warning);
    subscriber.next({ type: 'message-end', message });
    subscriber.next(next);
    subscriber.complete();
  }
}

/** The turn with the message; after a stop on the output limit with no call, a "continue" prompt. */
function withLengthRecovery(turn: Turn, message: AssistantMessage): Turn {
  const max = turn.run.settings.maxLengthRecoveries;
  const noToolCall = message.content.every((p) => p.type !== 'tool-call');
  if (message.stopReason !== 'length' || !noToolCall || turn.lengthRecoveries >= max) {
    return turn.withAssistant(message);
  }
  const resume: UserMessage = {
    role: 'user',
    content: LENGTH_RECOVERY_TEXT,
    timestamp: turn.run.scheduler.now(),
  };
  return turn.withAssistant(message, [...turn.next, resume], turn.lengthRecoveries + 1);
}
