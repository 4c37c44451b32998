import { BehaviorSubject, Observable, Subject, takeUntil } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import { initialAgentState, type AgentState } from './agent-state.js';
import { reduceAgentState } from './reduce-agent-state.js';
import { StateObservable } from './state-observable.js';
import { terminate } from './terminate.js';

/** A run with its state. */
export interface RunWithState {
  /** The run's events; subscribing starts the run (once, shared with `state$`). */
  events$: Observable<AgentEvent>;
  /** The state after each event, then the terminal state; `.value` reads it synchronously. */
  state$: StateObservable<AgentState>;
}

/**
 * Pairs a run with its state, sharing one subscription of the run: the first subscriber to
 * either starts it, the last one to leave cancels it. Each event is folded before it is
 * delivered, so `state$.value` is up to date inside event handlers. When the run ends the
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
  const shared = <T>(target: Observable<T>, late: (s: import('rxjs').Subscriber<T>) => void) =>
    function (this: Observable<T>, subscriber: import('rxjs').Subscriber<T>) {
      if (finished) {
        late(subscriber);
        return;
      }
      subscribers++;
      const sub = target.subscribe(subscriber);
      connect();
      return () => {
        sub.unsubscribe();
        release();
      };
    };

  const events$ = new Observable<AgentEvent>(
    shared(events, (s) => (state.value.phase === 'error' ? s.error(state.value.error) : s.complete())),
  );
  const state$ = new StateObservable<AgentState>(
    shared(state, (s) => {
      s.next(state.value);
      s.complete();
    }),
    () => state.value,
  );
  return { events$, state$ };
}
