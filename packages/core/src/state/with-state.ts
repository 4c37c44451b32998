import { BehaviorSubject, Observable, Subject, takeUntil } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import { initialAgentState, type AgentState } from './agent-state.js';
import { reduceAgentState } from './reduce-agent-state.js';
import { StateObservable } from './state-observable.js';
import { terminate } from './terminate.js';

/** A run with its state. */
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
  const state = new BehaviorSubject<AgentState>(initial);
  const events = new Subject<AgentEvent>();
  // takeUntil (not the Subscription) stops the run: it also works while the run is still
  // emitting synchronously inside its subscribe call.
  const disconnect = new Subject<void>();
  let cancelled = false;
  let started = false;
  let finished = false;
  let subscribers = 0;

  const finish = (next: AgentState, end: () => void) => {
    finished = true;
    state.next(next);
    end();
    state.complete();
  };
  const connect = () => {
    if (started) return;
    started = true;
    run$.pipe(takeUntil(disconnect)).subscribe({
      next(event) {
        state.next(reduceAgentState(state.value, event));
        events.next(event);
      },
      error(error: unknown) {
        finish(terminate(state.value, 'error', error), () => events.error(error));
      },
      complete() {
        const aborted = cancelled || state.value.stopReason === 'user-requested';
        finish(terminate(state.value, aborted ? 'cancelled' : 'done'), () => events.complete());
      },
    });
  };
  const release = () => {
    subscribers--;
    if (subscribers > 0 || finished || !started) return;
    cancelled = true;
    disconnect.next();
  };
  const events$ = new Observable<AgentEvent>((subscriber) => {
    if (finished) {
      if (state.value.phase === 'error') subscriber.error(state.value.error);
      else subscriber.complete();
      return;
    }
    subscribers++;
    // Registered before connecting: a subscriber may leave while a synchronous run is still
    // emitting inside connect().
    subscriber.add(events.subscribe(subscriber));
    subscriber.add(release);
    connect();
  });
  const state$ = new StateObservable<AgentState>(
    (subscriber) => {
      if (finished) {
        subscriber.next(state.value);
        subscriber.complete();
        return;
      }
      return state.subscribe(subscriber);
    },
    () => state.value,
  );
  return { events$, state$ };
}
