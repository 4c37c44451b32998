import { Subscription, type Observer } from 'rxjs';
import { PartialStreamError } from '../errors/provider-errors.js';
import type { AssistantMessage } from '../messages/types.js';
import { MessageBuilder } from '../model/message-builder.js';
import type { ModelEvent } from '../model/model-event.js';
import { finalizeAssistantMessage, LENGTH_RECOVERY_TEXT } from './assistant-message.js';
import type { LlmTurn } from './llm-turn.js';

/**
 * One attempt of a model call: folds the stream into the assistant message and emits
 * `message-start`, a `message-update` per delta, and `message-end` when the stream completed
 * after its `finish`. A failure goes back to the turn (which retries or fails). An Observer
 * and a Subscription at once, so RxJS subscribes it as it is: no wrapper per pending call.
 *
 * @example
 * const call = new ModelCall(llmTurn, 1);
 * llmTurn.work.add(call);
 * model.stream(request).subscribe(call);
 */
export class ModelCall extends Subscription implements Observer<ModelEvent> {
  private readonly builder: MessageBuilder;
  private started = false;
  private finished?: AssistantMessage;
  private failed = false;

  constructor(
    private readonly owner: LlmTurn,
    private readonly attemptNo: number,
  ) {
    super();
    const { model, turn } = owner;
    this.builder = new MessageBuilder(model.provider, model.modelId, turn.run.scheduler.now());
  }

  next(event: ModelEvent): void {
    if (this.finished || this.failed) return;
    const { builder, owner } = this;
    try {
      if (event?.type === 'finish') {
        const given: Partial<AssistantMessage> = event.message ?? {};
        this.finished = finalizeAssistantMessage(
          { ...given, stopReason: given.stopReason ?? event.reason },
          builder.message,
          builder.message.timestamp,
          owner.turn.step,
        );
        return;
      }
      if (!this.started) this.start();
      const delta = builder.apply(event);
      if (delta) owner.io.emit({ type: 'message-update', message: builder.message, delta });
    } catch (error) {
      this.fail(error);
    }
  }

  error(error: unknown): void {
    if (this.failed) return;
    this.unsubscribe();
    this.owner.onFailure(error, this.attemptNo);
  }

  complete(): void {
    if (this.failed) return;
    this.unsubscribe();
    const { owner } = this;
    try {
      const message = this.finished;
      if (!message) {
        const provider = owner.model.provider;
        return owner.onFailure(
          new PartialStreamError(`The ${provider} stream ended without a finish event.`, {
            partial: this.builder.message,
            provider,
          }),
          this.attemptNo,
        );
      }
      if (!this.started) this.start();
      const run = owner.turn.run;
      const noToolCall = message.content.every((p) => p.type !== 'tool-call');
      if (
        message.stopReason === 'length' &&
        noToolCall &&
        run.lengthRecoveries < (run.config.maxLengthRecoveries ?? 3)
      ) {
        run.lengthRecoveries++;
        owner.turn.next.push({ role: 'user', content: LENGTH_RECOVERY_TEXT, timestamp: run.scheduler.now() });
      }
      owner.turn.assistant = message;
      owner.io.emit({ type: 'message-end', message });
      owner.io.done();
    } catch (error) {
      // A throw here would escape to RxJS's unhandled-error hook and leave the run hanging.
      this.fail(error);
    }
  }

  private start(): void {
    this.started = true;
    this.owner.io.emit({ type: 'message-start', message: this.builder.message });
  }

  private fail(error: unknown): void {
    this.failed = true; // ignore whatever else the stream sends; failing tears it down
    this.owner.io.fail(error);
  }
}
