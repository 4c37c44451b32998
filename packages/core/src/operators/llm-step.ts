import { Subscription, timer, type Observable } from 'rxjs';
import { RetriesExhaustedError } from '../errors/agent-errors.js';
import { ProviderError } from '../errors/provider-error.js';
import { ContextOverflowError, PartialStreamError } from '../errors/provider-errors.js';
import { RxAgentError } from '../errors/rxagent-error.js';
import { serializeError } from '../errors/serialize-error.js';
import type { LoopOperator } from '../loop/loop-event.js';
import type { RetryBackoff } from '../loop/run-config.js';
import type { AssistantMessage, Message } from '../messages/types.js';
import type { ChatModel, ChatRequest } from '../model/chat-model.js';
import { MessageBuilder } from '../model/message-builder.js';
import type { ModelEvent } from '../model/model-event.js';
import { finalizeAssistantMessage, LENGTH_RECOVERY_TEXT } from './assistant-message.js';
import { buildRequest } from './build-request.js';
import { checkSequence } from './check-sequence.js';
import { isRetryable, retryDelayMs } from './retry-policy.js';
import { turnOperator } from './turn-operator.js';

/** Options of `llmStep`; each defaults to the run's config. */
export interface LlmStepOptions {
  maxRetries?: number;
  retryBackoff?: RetryBackoff;
  /** Fields merged into every request (after the run's own). */
  request?: Partial<Omit<ChatRequest, 'messages'>>;
}

function typed(error: unknown, provider: string): unknown {
  if (RxAgentError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`The ${provider} model call failed: ${message}`, {
    cause: error,
    provider,
    retryable: false,
  });
}

/**
 * Calls the model once per turn and streams its message: `message-start`, a
 * `message-update` per delta, `message-end`. Retryable failures are retried with backoff on
 * the scheduler (each announced by a `retry` event, the partial message discarded); a
 * context overflow is handed once to `compactContext`; a stop on the output limit with no
 * tool call asks the model to continue (at most 3 times a run). The transcript is validated
 * and repaired before every call. Tools run only after the message is complete, so a failed
 * call never has tools of its own turn behind it and a retry never repeats a tool.
 *
 * @param model The model to call (default: the run's `model`).
 * @param options Retry and request overrides.
 * @return A loop operator.
 *
 * @example
 * runAgent({ model, prompt, pipeline: (turn$) => turn$.pipe(llmStep(fastModel, { maxRetries: 1 }), executeTools()) });
 */
export function llmStep(model?: ChatModel, options: LlmStepOptions = {}): LoopOperator {
  return turnOperator((turn, io) => {
    const run = turn.run;
    const chatModel = model ?? run.model;
    const maxRetries = options.maxRetries ?? run.config.maxRetries ?? 3;
    const work = new Subscription();
    const failures: unknown[] = [];
    let overflowRecovered = false;
    let context: readonly Message[] = checkSequence(turn, io) ?? turn.context ?? run.modelMessages;

    const onFailure = (error: unknown, attemptNo: number) => {
      failures.push(error);
      if (ContextOverflowError.isInstance(error) && turn.recoverOverflow && !overflowRecovered) {
        overflowRecovered = true;
        io.emit({ type: 'retry', attempt: attemptNo, delayMs: 0, error: serializeError(error) });
        work.add(
          turn.recoverOverflow(error).subscribe({
            next: (messages) => (context = messages),
            error: (recoveryError: unknown) => io.fail(recoveryError),
            complete: () => attempt(attemptNo + 1),
          }),
        );
        return;
      }
      if (!isRetryable(error)) return io.fail(typed(error, chatModel.provider));
      if (failures.length > maxRetries) return io.fail(new RetriesExhaustedError(failures.length, failures));
      const delayMs = retryDelayMs(
        error,
        failures.length,
        options.retryBackoff ?? run.config.retryBackoff,
        run.config.random,
      );
      io.emit({ type: 'retry', attempt: failures.length, delayMs, error: serializeError(error) });
      work.add(timer(delayMs, run.scheduler).subscribe(() => attempt(attemptNo + 1)));
    };

    const attempt = (attemptNo: number): void => {
      const builder = new MessageBuilder(chatModel.provider, chatModel.modelId, run.scheduler.now());
      let started = false;
      let finished: AssistantMessage | undefined;
      let failed = false;
      const start = () => {
        if (started) return;
        started = true;
        io.emit({ type: 'message-start', message: builder.message });
      };
      let stream$: Observable<ModelEvent>;
      try {
        stream$ = chatModel.stream(buildRequest(turn, context, options.request));
      } catch (error) {
        return onFailure(error, attemptNo);
      }
      const modelSub = stream$.subscribe({
        next(event) {
          if (finished || failed) return;
          try {
            if (event?.type === 'finish') {
              const given: Partial<AssistantMessage> = event.message ?? {};
              finished = finalizeAssistantMessage(
                { ...given, stopReason: given.stopReason ?? event.reason },
                builder.message,
                builder.message.timestamp,
                turn.step,
              );
              return;
            }
            if (!started) start();
            const delta = builder.apply(event);
            if (delta) io.emit({ type: 'message-update', message: builder.message, delta });
          } catch (error) {
            failed = true; // ignore whatever else the stream sends; failing tears it down
            io.fail(error);
          }
        },
        error: (error: unknown) => onFailure(error, attemptNo),
        complete() {
          if (failed) return;
          try {
            if (!finished) {
              return onFailure(
                new PartialStreamError(`The ${chatModel.provider} stream ended without a finish event.`, {
                  partial: builder.message,
                  provider: chatModel.provider,
                }),
                attemptNo,
              );
            }
            start();
            const message = finished;
            const noToolCall = message.content.every((p) => p.type !== 'tool-call');
            if (
              message.stopReason === 'length' &&
              noToolCall &&
              run.lengthRecoveries < (run.config.maxLengthRecoveries ?? 3)
            ) {
              run.lengthRecoveries++;
              turn.next.push({ role: 'user', content: LENGTH_RECOVERY_TEXT, timestamp: run.scheduler.now() });
            }
            turn.assistant = message;
            io.emit({ type: 'message-end', message });
            io.done();
          } catch (error) {
            // A throw here would escape to RxJS's unhandled-error hook and leave the run hanging.
            io.fail(error);
          }
        },
      });
      work.add(modelSub);
    };

    attempt(1);
    return work;
  });
}
