import { Observable } from 'rxjs';
import { chainedObserver } from '../util/chained-observer.js';
import { PartialStreamError } from '../errors/provider-errors.js';
import type { Turn } from '../turn/turn.js';
import type { LoopItem } from '../turn/loop-item.js';
import type { AssistantMessage, UserMessage } from '../messages/types.js';
import type { ChatModel, ChatRequest } from '../model/chat-model.js';
import { MessageBuilder } from '../model/message-builder.js';
import type { ModelEvent } from '../model/model-event.js';
import { priceMessage } from '../cost/price-message.js';
import { finalizeAssistantMessage, LENGTH_RECOVERY_TEXT } from './assistant-message.js';
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
 * ignored too.
 *
 * @example
 * modelAttempt(turn, model, buildRequest(turn, turn.modelMessages)).subscribe((item) => console.log(item.type));
 */
export function modelAttempt(turn: Turn, model: ChatModel, request: ChatRequest): Observable<LoopItem> {
  return new Observable<LoopItem>((subscriber) => {
    const builder = new MessageBuilder(model.provider, model.modelId, turn.run.scheduler.now());
    let started = false;
    let finished: Partial<AssistantMessage> | undefined;
    const start = () => {
      started = true;
      subscriber.next({ type: 'message-start', message: builder.message });
    };
    // The provider reads its own tool-call ids back; the run keeps its run-unique ones.
    const messages = providerMessages(turn.log, request.messages);
    model.stream(messages === request.messages ? request : { ...request, messages }).subscribe(
      chainedObserver<ModelEvent>(subscriber, {
        next: (event: ModelEvent) => {
          if (finished) return;
          try {
            if (event?.type === 'finish') {
              const given: Partial<AssistantMessage> = event.message ?? {};
              finished = { ...given, stopReason: given.stopReason ?? event.reason };
              return;
            }
            if (!started) start();
            const delta = builder.apply(event);
            if (delta) subscriber.next({ type: 'message-update', message: builder.message, delta });
          } catch (error) {
            // A throw here would escape to RxJS's unhandled-error hook and leave the run hanging.
            subscriber.error(error);
          }
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          if (!finished) {
            subscriber.error(
              new PartialStreamError(`The ${model.provider} stream ended without a finish event.`, {
                partial: builder.message,
                provider: model.provider,
              }),
            );
            return;
          }
          let message: AssistantMessage;
          try {
            message = finalizeAssistantMessage(
              finished,
              builder.message,
              builder.message.timestamp,
              turn.step,
              callIdsInUse(turn.log),
            );
          } catch (error) {
            subscriber.error(error);
            return;
          }
          const warned = turn.operatorState<readonly string[]>(UNPRICED) ?? [];
          const priced = priceMessage(turn.run.settings.prices, message, model.modelId, warned);
          message = priced.message;
          const base = priced.unpriced
            ? turn.withOperatorState(UNPRICED, [...warned, priced.unpriced])
            : turn;
          if (!started) start();
          if (priced.warning) subscriber.next(priced.warning);
          subscriber.next({ type: 'message-end', message });
          subscriber.next(withLengthRecovery(base, message));
          subscriber.complete();
        },
      }),
    );
  });
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
