import { asyncScheduler, defer, tap, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';

/**
 * One recorded event and when it came, in ms since the recording started.
 *
 * @example
 * const entry: RecordedEvent = { at: 120, event: { type: 'turn-start', step: 1 } };
 */
export interface RecordedEvent {
  at: number;
  event: AgentEvent;
}

/**
 * Records a run's events into `log` as they pass (with their time on the scheduler), for
 * `replayRun` or to rebuild the state later. The log is plain JSON: save it to replay a run
 * after a crash or render it again.
 *
 * @example
 * const log: RecordedEvent[] = [];
 * await lastValueFrom(runAgent(config).pipe(recordRun(log)));
 * fs.writeFileSync('run.json', JSON.stringify(log));
 */
export function recordRun(
  log: RecordedEvent[],
  scheduler: SchedulerLike = asyncScheduler,
): MonoTypeOperatorFunction<AgentEvent> {
  return (source) =>
    defer(() => {
      const start = scheduler.now();
      return source.pipe(tap((event) => log.push({ at: scheduler.now() - start, event })));
    });
}
