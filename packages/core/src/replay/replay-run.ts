import { asyncScheduler, Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import { initialAgentState, type AgentState } from '../state/agent-state.js';
import { reduceAgentState } from '../state/reduce-agent-state.js';
import type { RecordedEvent } from './record-run.js';

/**
 * Options of `replayRun`.
 *
 * @example
 * replayRun(log, { speed: Infinity }).subscribe(render);
 */
export interface ReplayOptions {
  /** 1 replays at the recorded pace, 2 twice as fast, `Infinity` at once. Default 1. */
  speed?: number;
  scheduler?: SchedulerLike;
}

/**
 * Plays a recorded run again as a cold Observable of its events, at the recorded pace (or
 * faster), on the scheduler — to re-render a run in a UI or feed it to `withState`.
 *
 * @example
 * const { events$, state$ } = withState(replayRun(log, { speed: 4 }));
 * state$.subscribe(render);
 * events$.subscribe();
 */
export function replayRun(
  log: readonly RecordedEvent[],
  options: ReplayOptions = {},
): Observable<AgentEvent> {
  const speed = options.speed ?? 1;
  const scheduler = options.scheduler ?? asyncScheduler;
  return new Observable<AgentEvent>((subscriber) => {
    if (!(speed > 0) || speed === Infinity) {
      for (const { event } of log) {
        if (subscriber.closed) return;
        subscriber.next(event);
      }
      subscriber.complete();
      return;
    }
    let i = 0;
    let pending: Subscription | undefined;
    const emitDue = () => {
      const at = log[i]?.at ?? 0;
      while (i < log.length && (log[i] as RecordedEvent).at <= at)
        subscriber.next((log[i++] as RecordedEvent).event);
      if (i >= log.length) return subscriber.complete();
      pending = scheduler.schedule(emitDue, ((log[i] as RecordedEvent).at - at) / speed);
    };
    pending = scheduler.schedule(emitDue, (log[0]?.at ?? 0) / speed);
    return () => pending?.unsubscribe();
  });
}

/**
 * The state a sequence of events folds to (e.g. a recorded run's, to resume after a crash).
 *
 * @example
 * const state = foldEvents(log.map((r) => r.event));
 * agent.importMessages(state.messages);
 */
export function foldEvents(
  events: readonly AgentEvent[],
  initial: AgentState = initialAgentState(),
): AgentState {
  const state = events.reduce(reduceAgentState, initial);
  return state;
}
