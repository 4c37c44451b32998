import { Observable, Subscription, type Subscriber, type TeardownLogic } from 'rxjs';
import { chainedObserver, type ChainHandlers } from '../util/chained-observer.js';
import type { AgentEvent } from '../events/agent-event.js';
import { initialAgentState, type AgentState } from './agent-state.js';
import { foldRun } from './fold-run.js';
import { StateCell } from './state-cell.js';
import { StateObservable } from './state-observable.js';

/**
 * A run with its state.
 *
 * @example
 * const { events$, state$ }: RunWithState = withState(runAgent(config));
 * state$.subscribe((s) => render(s.phase));
 * events$.subscribe();
 */
export interface RunWithState {
  /** The run's events; the first subscription starts the run, later ones share it. */
  events$: Observable<AgentEvent>;
  /** The state after each event, then the terminal state; `.value` reads it synchronously.
   * Subscribing does not start the run. */
  state$: StateObservable<AgentState>;
}

/**
 * Pairs a run with its state, sharing one subscription of the run: the first subscriber to
 * `events$` starts it, the last one to leave cancels it; `state$` only watches (subscribe it
 * first to see every state). Each event is folded before it is delivered, so `state$.value`
 * is up to date inside event handlers. The run ends in a terminal phase (`foldRun`): `done`
 * after `agent-end`, `cancelled` on abort, unsubscribe or a cut (`takeUntil`), `error` on
 * error — and the transcript is closed. Late subscribers get the end: `events$` completes (or
 * errors with the run's error itself), `state$` emits the terminal state and completes.
 *
 * @param run$ A run (e.g. `runAgent(config)`); `state.messages` starts from its `agent-start`'s transcript.
 * @param initial The state to start from (default `initialAgentState()`).
 * @return `{ events$, state$ }`.
 *
 * @example
 * const { events$, state$ } = withState(runAgent(config));
 * state$.pipe(selectPhase()).subscribe((phase) => console.log(phase));
 * events$.subscribe();
 */
export function withState(
  run$: Observable<AgentEvent>,
  initial: AgentState = initialAgentState(),
): RunWithState {
  const shared = new SharedRun(run$, new StateCell(initial));
  const events$ = new Observable<AgentEvent>((subscriber) => shared.join(subscriber));
  const state$ = new StateObservable<AgentState>(
    (subscriber) => shared.watch(subscriber),
    () => shared.state.value,
  );
  return { events$, state$ };
}

/**
 * One subscription of a run shared by the subscribers of `events$`, folding each event into
 * `state` before it goes out — `share()` with `foldRun`, written out because it is on the
 * path of every streamed delta (the bench's streaming rows). The run is subscribed once: the
 * first subscriber starts it, the last one to leave before its end cancels it; whoever comes
 * after the end gets the end (the run's completion or its error).
 */
class SharedRun implements ChainHandlers<AgentEvent> {
  /** Replaced, never changed, so a delivery in progress keeps the list it started with. */
  private subscribers: readonly Subscriber<AgentEvent>[] = [];
  private started = false;
  private ended = false;
  private failed = false;
  private failure: unknown;
  private readonly link = new Subscription();

  constructor(
    private readonly run$: Observable<AgentEvent>,
    readonly state: StateCell<AgentState>,
  ) {}

  join(subscriber: Subscriber<AgentEvent>): TeardownLogic {
    if (this.ended || (this.started && this.link.closed)) {
      if (this.failed) subscriber.error(this.failure);
      else subscriber.complete();
      return undefined;
    }
    this.subscribers = this.subscribers.concat([subscriber]); // made to size: a pending run holds it
    // Before the run starts: a subscriber that leaves while a synchronous run emits stops it there.
    subscriber.add(() => this.leave(subscriber));
    if (!this.started) {
      this.started = true;
      this.run$.pipe(foldRun(this.state)).subscribe(chainedObserver(this.link, this));
    }
    return undefined;
  }

  watch(subscriber: Subscriber<AgentState>): TeardownLogic {
    // A completed cell gives nothing but complete; a late subscriber wants the end state.
    if (this.ended) {
      subscriber.next(this.state.value);
      subscriber.complete();
      return undefined;
    }
    return this.state.subscribe(subscriber);
  }

  next(event: AgentEvent): void {
    for (const subscriber of this.subscribers) subscriber.next(event);
  }

  error(error: unknown): void {
    this.failed = true;
    this.failure = error;
    const subscribers = this.end();
    for (const subscriber of subscribers) subscriber.error(error);
    this.state.complete();
  }

  complete(): void {
    const subscribers = this.end();
    for (const subscriber of subscribers) subscriber.complete();
    this.state.complete();
  }

  private end(): readonly Subscriber<AgentEvent>[] {
    this.ended = true;
    const subscribers = this.subscribers;
    this.subscribers = [];
    return subscribers;
  }

  private leave(subscriber: Subscriber<AgentEvent>): void {
    if (this.ended) return;
    this.subscribers = this.subscribers.filter((s) => s !== subscriber);
    if (this.subscribers.length > 0) return;
    // The last one left before the end: the run is cancelled (its fold writes `cancelled`).
    this.ended = true;
    this.link.unsubscribe();
    this.state.complete();
  }
}
