import { Observable, Subscription, type Observer } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import { Fanout } from '../util/fanout.js';
import { initialAgentState, type AgentState } from './agent-state.js';
import { reduceAgentState } from './reduce-agent-state.js';
import { StateObservable } from './state-observable.js';
import { terminate } from './terminate.js';

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
 * The one subscription of the run behind `withState`: it folds each event into the state
 * before passing it on. An Observer and a Subscription at once, so RxJS subscribes it as it is
 * — one hop less per delta — and unsubscribing it stops the run, even while a synchronous run
 * is still emitting inside its subscribe call.
 */
class StateConnection extends Subscription implements Observer<AgentEvent> {
  readonly states = new Fanout<AgentState>();
  readonly events = new Fanout<AgentEvent>();
  /** The state as of the last event (what `state$.value` reads; new `state$` subscribers get it first). */
  current: AgentState;
  finished = false;
  private cancelled = false;

  constructor(initial: AgentState) {
    super();
    this.current = initial;
  }

  next(event: AgentEvent): void {
    if (this.finished) return;
    this.current = reduceAgentState(this.current, event);
    this.states.next(this.current);
    this.events.next(event);
  }

  error(error: unknown): void {
    this.finish(terminate(this.current, 'error', error), () => this.events.error(error));
  }

  complete(): void {
    const aborted = this.cancelled || this.current.stopReason === 'user-requested';
    this.finish(terminate(this.current, aborted ? 'cancelled' : 'done'), () => this.events.complete());
  }

  /** The last subscriber left: stop the run, the state is cancelled. */
  cancel(): void {
    if (this.finished) return;
    this.cancelled = true;
    this.unsubscribe();
    this.complete();
  }

  private finish(next: AgentState, end: () => void): void {
    if (this.finished) return;
    this.finished = true;
    this.unsubscribe();
    this.current = next;
    this.states.next(next);
    end();
    this.states.complete();
  }
}

/**
 * Pairs a run with its state, sharing one subscription of the run: the first subscriber to
 * `events$` starts it, the last one to leave cancels it; `state$` only watches (subscribe it
 * first to see every state). Each event is folded before it is delivered, so `state$.value`
 * is up to date inside event handlers. When the run ends the
 * state moves to a terminal phase: complete → `done`, abort → `cancelled` (as does
 * unsubscribing), error → `error` — first one wins, and the transcript is closed.
 *
 * @param run$ A run (e.g. `runAgent(config)`).
 * @param initial The state to start from (default `initialAgentState(config.messages)`).
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
  const connection = new StateConnection(initial);
  let started = false;
  let subscribers = 0;
  const release = () => {
    subscribers--;
    if (subscribers === 0 && started) connection.cancel();
  };
  const events$ = new Observable<AgentEvent>((subscriber) => {
    if (connection.finished) {
      if (connection.current.phase === 'error') subscriber.error(connection.current.error);
      else subscriber.complete();
      return;
    }
    subscribers++;
    // Registered before connecting: a subscriber may leave while a synchronous run is still
    // emitting inside subscribe().
    subscriber.add(connection.events.add(subscriber));
    subscriber.add(release);
    if (started) return;
    started = true;
    run$.subscribe(connection);
  });
  const state$ = new StateObservable<AgentState>(
    (subscriber) => {
      if (connection.finished) {
        subscriber.next(connection.current);
        subscriber.complete();
        return;
      }
      subscriber.next(connection.current);
      return connection.states.add(subscriber);
    },
    () => connection.current,
  );
  return { events$, state$ };
}
