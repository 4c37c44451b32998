import { BehaviorSubject, defer, EMPTY, finalize, of, share, type Observable } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import { initialAgentState, type AgentState } from './agent-state.js';
import { foldRun } from './fold-run.js';
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
  const state = new BehaviorSubject(initial);
  let started = false;
  let ended = false;
  const events$ = defer(() => {
    // The run is subscribed once: after the last subscriber left, `share` comes back here.
    if (started) return EMPTY;
    started = true;
    return run$.pipe(
      foldRun(state),
      finalize(() => {
        ended = true;
        state.complete();
      }),
    );
  }).pipe(share({ resetOnError: false, resetOnComplete: false, resetOnRefCountZero: true }));
  const state$ = new StateObservable<AgentState>(
    // A completed BehaviorSubject gives nothing but complete; a late subscriber wants the end state.
    (subscriber) => (ended ? of(state.value) : state).subscribe(subscriber),
    () => state.value,
  );
  return { events$, state$ };
}
