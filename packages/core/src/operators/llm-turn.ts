import { Subscription, timer, type Observable } from 'rxjs';
import { RetriesExhaustedError } from '../errors/agent-errors.js';
import { ProviderError } from '../errors/provider-error.js';
import { ContextOverflowError } from '../errors/provider-errors.js';
import { RxAgentError } from '../errors/rxagent-error.js';
import { serializeError } from '../errors/serialize-error.js';
import type { TurnContext } from '../loop/loop-event.js';
import type { Message } from '../messages/types.js';
import type { ChatModel } from '../model/chat-model.js';
import type { ModelEvent } from '../model/model-event.js';
import { buildRequest } from './build-request.js';
import { checkSequence } from './check-sequence.js';
import type { LlmStepOptions } from './llm-step.js';
import { ModelCall } from './model-call.js';
import { isRetryable, retryDelayMs } from './retry-policy.js';
import type { TurnIO } from './turn-operator.js';

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
 * The model call of one turn, with its retries: each attempt is a `ModelCall`; a retryable
 * failure waits (`retry` event, backoff on the scheduler) and tries again, a context overflow
 * goes once to the turn's `recoverOverflow`, anything else fails the turn with a typed error.
 *
 * @example
 * const work = new LlmTurn(turn, io, turn.run.model, {}).start();
 */
export class LlmTurn {
  readonly work = new Subscription();
  private failures?: unknown[];
  private overflowRecovered = false;
  private context: readonly Message[];

  constructor(
    readonly turn: TurnContext,
    readonly io: TurnIO,
    readonly model: ChatModel,
    private readonly options: LlmStepOptions,
  ) {
    this.context = checkSequence(turn, io) ?? turn.context ?? turn.run.modelMessages;
  }

  /** Makes the first attempt; returns what to unsubscribe to cancel the call. */
  start(): Subscription {
    this.attempt(1);
    return this.work;
  }

  onFailure(error: unknown, attemptNo: number): void {
    const { turn, io, options } = this;
    const run = turn.run;
    const failures = (this.failures ??= []);
    failures.push(error);
    if (ContextOverflowError.isInstance(error) && turn.recoverOverflow && !this.overflowRecovered) {
      this.overflowRecovered = true;
      io.emit({ type: 'retry', attempt: attemptNo, delayMs: 0, error: serializeError(error) });
      this.work.add(
        turn.recoverOverflow(error).subscribe({
          next: (messages) => (this.context = messages),
          error: (recoveryError: unknown) => io.fail(recoveryError),
          complete: () => this.attempt(attemptNo + 1),
        }),
      );
      return;
    }
    if (!isRetryable(error)) return io.fail(typed(error, this.model.provider));
    const maxRetries = options.maxRetries ?? run.config.maxRetries ?? 3;
    if (failures.length > maxRetries) return io.fail(new RetriesExhaustedError(failures.length, failures));
    const backoff = options.retryBackoff ?? run.config.retryBackoff;
    const delayMs = retryDelayMs(error, failures.length, backoff, run.config.random);
    io.emit({ type: 'retry', attempt: failures.length, delayMs, error: serializeError(error) });
    this.work.add(timer(delayMs, run.scheduler).subscribe(() => this.attempt(attemptNo + 1)));
  }

  private attempt(attemptNo: number): void {
    let stream$: Observable<ModelEvent>;
    try {
      stream$ = this.model.stream(buildRequest(this.turn, this.context, this.options.request));
    } catch (error) {
      return this.onFailure(error, attemptNo);
    }
    const call = new ModelCall(this, attemptNo);
    this.work.add(call);
    stream$.subscribe(call);
  }
}
