import {
  catchError,
  concat,
  concatMap,
  defer,
  from,
  last,
  Observable,
  of,
  throwError,
  timer,
  type Subscriber,
} from 'rxjs';
import { RetriesExhaustedError } from '../errors/agent-errors.js';
import { ProviderError } from '../errors/provider-error.js';
import { ContextOverflowError } from '../errors/provider-errors.js';
import { RxAgentError } from '../errors/rxagent-error.js';
import { redactError } from '../errors/redact-error.js';
import { serializeError } from '../errors/serialize-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { Turn } from '../turn/turn.js';
import type { TurnContextUpdate } from '../turn/turn-fields.js';
import { CONTEXT_MANAGER_STATE } from '../context/context-manager.js';
import type { LoopItem } from '../turn/loop-item.js';
import type { Message } from '../messages/types.js';
import type { ChatModel } from '../model/chat-model.js';
import { buildRequest } from './build-request.js';
import type { LlmStepOptions } from './llm-step.js';
import { EagerCalls, hasEagerTools } from './eager-calls.js';
import { modelAttempt } from './model-attempt.js';
import { isRetryable, retryDelayMs } from './retry-policy.js';
import { chainedObserver, type ChainHandlers } from '../util/chained-observer.js';

function typed(error: unknown, provider: string): unknown {
  if (RxAgentError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`The ${provider} model call failed: ${message}`, {
    cause: error,
    provider,
    retryable: false,
  });
}

function retryEvent(attempt: number, delayMs: number, error: unknown): AgentEvent {
  return { type: 'retry', attempt, delayMs, error: serializeError(error) };
}

/**
 * The model call of one turn with its retries: each attempt is a `modelAttempt` over a fresh
 * request snapshot; a retryable failure emits `retry`, waits on the scheduler and tries again;
 * a context overflow goes once to the turn's `recoverOverflow`; anything else fails with a
 * typed error (`RetriesExhaustedError` once `maxRetries` is spent). Calls of eager tools start
 * as their arguments complete; a failed attempt aborts its own before its `retry` event.
 *
 * @example
 * callModel(turn, turn.run.model, turn.modelMessages, {}).subscribe((item) => console.log(item.type));
 */
export function callModel(
  turn: Turn,
  model: ChatModel,
  context: readonly Message[],
  options: LlmStepOptions,
): Observable<LoopItem> {
  // The first attempt is subscribed as it is (most calls succeed): only a failure builds the
  // chain of retries.
  return new Observable<LoopItem>((subscriber) => {
    // Calls of eager tools started while a message streams; a failed attempt drops its own.
    const eager = hasEagerTools(turn) ? new EagerCalls(turn) : undefined;
    let first: Observable<LoopItem>;
    try {
      first = modelAttempt(turn, model, buildRequest(turn, context, options.request), eager);
    } catch (error) {
      subscriber.error(error);
      return;
    }
    first.subscribe(
      chainedObserver<LoopItem>(
        subscriber,
        new FirstAttempt(subscriber, turn, model, context, options, eager),
      ),
    );
  });
}

/** The items of a model call: passed on; a failure of the first attempt goes to its retries. */
class FirstAttempt implements ChainHandlers<LoopItem> {
  constructor(
    private readonly subscriber: Subscriber<LoopItem>,
    private readonly turn: Turn,
    private readonly model: ChatModel,
    private readonly context: readonly Message[],
    private readonly options: LlmStepOptions,
    private readonly eager: EagerCalls | undefined,
  ) {}

  next(item: LoopItem): void {
    this.subscriber.next(item);
  }

  error(error: unknown): void {
    const subscriber = this.subscriber;
    retries(this.turn, this.model, this.options, this.eager)(
      error,
      1,
      this.context,
      [],
      false,
      this.turn,
    ).subscribe(
      chainedObserver<LoopItem>(subscriber, {
        next: (item) => subscriber.next(item),
        error: (e: unknown) => subscriber.error(e),
        complete: () => subscriber.complete(),
      }),
    );
  }

  complete(): void {
    this.subscriber.complete();
  }
}

/** The turn a recovered call goes on from: the recovery's usage added, the manager's state kept. */
function updated(base: Turn, update: TurnContextUpdate): Turn {
  const withUsage = update.usage ? base.withUsage(update.usage) : base;
  return update.state === undefined
    ? withUsage
    : withUsage.withOperatorState(CONTEXT_MANAGER_STATE, update.state);
}

type OnFailure = (
  raw: unknown,
  attemptNo: number,
  messages: readonly Message[],
  failures: readonly unknown[],
  recovered: boolean,
  base: Turn,
) => Observable<LoopItem>;

/** What follows a failed attempt: a recovered context, a retry after its delay, or the error. */
function retries(
  turn: Turn,
  model: ChatModel,
  options: LlmStepOptions,
  eager: EagerCalls | undefined,
): OnFailure {
  const { settings, scheduler } = turn.run;
  const maxRetries = options.maxRetries ?? settings.maxRetries;
  const backoff = options.retryBackoff ?? settings.retryBackoff;
  const onFailure: OnFailure = (
    raw: unknown,
    attemptNo: number,
    messages: readonly Message[],
    failures: readonly unknown[],
    recovered: boolean,
    base: Turn,
  ): Observable<LoopItem> => {
    // Every failure of the model is redacted of its secrets before anything sees it.
    const error = redactError(raw, model.secrets);
    const all = [...failures, error];
    if (ContextOverflowError.isInstance(error) && turn.recoverOverflow && !recovered) {
      return concat(
        of(retryEvent(attemptNo, 0, error)),
        turn.recoverOverflow(error).pipe(
          last(),
          concatMap((update) =>
            concat(
              from(update.events),
              defer(() => attempt(attemptNo + 1, update.messages, all, true, updated(base, update))),
            ),
          ),
        ),
      );
    }
    if (!isRetryable(error)) return throwError(() => typed(error, model.provider));
    if (all.length > maxRetries) return throwError(() => new RetriesExhaustedError(all.length, all));
    const delayMs = retryDelayMs(error, all.length, backoff, settings.random);
    return concat(
      of(retryEvent(all.length, delayMs, error)),
      timer(delayMs, scheduler).pipe(concatMap(() => attempt(attemptNo + 1, messages, all, recovered, base))),
    );
  };
  const attempt = (
    attemptNo: number,
    messages: readonly Message[],
    failures: readonly unknown[],
    recovered: boolean,
    base: Turn,
  ): Observable<LoopItem> =>
    defer(() => modelAttempt(base, model, buildRequest(base, messages, options.request), eager)).pipe(
      catchError((error: unknown) => onFailure(error, attemptNo, messages, failures, recovered, base)),
    );
  return onFailure;
}
