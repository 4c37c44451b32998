import {
  Observable,
  type BehaviorSubject,
  type MonoTypeOperatorFunction,
  type Subscriber,
  type Unsubscribable,
} from 'rxjs';
import { chainedObserver, type ChainHandlers } from '../util/chained-observer.js';
import type { AgentEndEvent, AgentEvent } from '../events/agent-event.js';
import type { AgentState } from './agent-state.js';
import { reduceAgentState } from './reduce-agent-state.js';
import { terminate } from './terminate.js';

/**
 * Options of `foldRun`.
 *
 * @example
 * const options: FoldRunOptions = { now: () => scheduler.now() };
 */
export interface FoldRunOptions {
  /** The time stamped on the results that close the transcript at the end. Default: 0. */
  now?: () => number;
  /**
   * Asked when the run is cancelled: true drops a streamed partial answer (a silent abort)
   * instead of keeping it, marked aborted.
   */
  dropPartial?: () => boolean;
}

/**
 * Where `foldRun` writes: a `BehaviorSubject`, or anything with its `value` and `next`.
 *
 * @example
 * const sink: FoldTarget = new BehaviorSubject(initialAgentState());
 */
type FoldTarget = Pick<BehaviorSubject<AgentState>, 'value' | 'next'>;

/**
 * Folds a run's events into `state` as they pass (each event is folded before it goes on,
 * so `state.value` is current in every handler), then writes the terminal phase:
 * - complete after an `agent-end` → `done` (`cancelled` when its reason is `user-requested`);
 * - complete without `agent-end` (cut by `takeUntil`, `take`…) or unsubscribed → `cancelled`;
 * - error → `error`.
 *
 * The terminal state is written before the completion or error goes downstream. This is the
 * one fold behind `withState` and the `Agent` class.
 *
 * @param state Where the state lives; it is not completed (an `Agent` folds run after run into one).
 * @param options The clock for the closing results; the silent-abort switch.
 * @return The run's events, unchanged.
 *
 * @example
 * const state = new BehaviorSubject(initialAgentState());
 * runAgent(config).pipe(foldRun(state)).subscribe({ complete: () => console.log(state.value.phase) });
 */
export function foldRun(
  state: FoldTarget,
  options: FoldRunOptions = {},
): MonoTypeOperatorFunction<AgentEvent> {
  return (run$) =>
    new Observable<AgentEvent>((subscriber) => {
      const fold = new RunFold(state, options, subscriber);
      run$.subscribe(chainedObserver(subscriber, fold));
      // After the run's own teardown (added first): an unsubscribe before the end cancels.
      return fold;
    });
}

/**
 * One run's fold, as an object rather than the closures of `tap` and `defer`: it is on the path
 * of every streamed delta of `withState` and `Agent` (the bench's streaming rows).
 */
class RunFold implements ChainHandlers<AgentEvent>, Unsubscribable {
  private end?: AgentEndEvent;
  private settled = false;

  constructor(
    private readonly state: FoldTarget,
    private readonly options: FoldRunOptions,
    private readonly subscriber: Subscriber<AgentEvent>,
  ) {}

  next(event: AgentEvent): void {
    if (event.type === 'agent-end') this.end = event;
    this.state.next(reduceAgentState(this.state.value, event));
    this.subscriber.next(event);
  }

  error(error: unknown): void {
    this.settle('error', error);
    this.subscriber.error(error);
  }

  complete(): void {
    const end = this.end;
    this.settle(end && end.reason !== 'user-requested' ? 'done' : 'cancelled');
    this.subscriber.complete();
  }

  /** The teardown: a run left before its end is cancelled. */
  unsubscribe(): void {
    this.settle('cancelled');
  }

  private settle(phase: 'done' | 'cancelled' | 'error', error?: unknown): void {
    if (this.settled) return;
    this.settled = true;
    const { state, options } = this;
    let current = state.value;
    if (phase === 'cancelled' && current.streamingMessage && options.dropPartial?.()) {
      current = { ...current, streamingMessage: undefined };
    }
    const next = terminate(current, phase, error, options.now?.() ?? 0);
    // Terminal is sticky: a state already terminal changes nothing.
    if (next !== state.value) state.next(next);
  }
}
