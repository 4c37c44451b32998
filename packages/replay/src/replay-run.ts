import { asyncScheduler, Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { AgentEvent } from '@rxagent/core';
import type { RecordedEvent } from '@rxagent/core/streams';
import { MissingToolResultError, RunLogTruncatedError } from './replay-errors.js';
import type { RunLog } from './run-log.js';

/**
 * Options of `replayRun`.
 *
 * @example
 * replayRun(log, { speed: Infinity }).subscribe(render);
 */
export interface ReplayOptions {
  /** 1 replays at the recorded pace, 2 twice as fast, `Infinity` at once. Default 1. */
  speed?: number;
  /** Where the pace is kept (pass a `TestScheduler` for virtual time). Default `asyncScheduler`. */
  scheduler?: SchedulerLike;
}

interface Timed {
  at: number;
  event: AgentEvent;
}

/** Checks, as events pass, that every tool call that started has its recorded end. */
class ToolResultCheck {
  private readonly open = new Map<string, string>();

  /** The error for an event that closes a step while a call has no result, else undefined. */
  check(event: AgentEvent): MissingToolResultError | undefined {
    if (event.type === 'tool-start') this.open.set(event.toolCallId, event.toolName);
    else if (event.type === 'tool-end') this.open.delete(event.toolCallId);
    else if ((event.type === 'turn-end' || event.type === 'agent-end') && this.open.size > 0) {
      const [id, name] = this.open.entries().next().value as [string, string];
      return new MissingToolResultError(id, name);
    }
    return undefined;
  }
}

/**
 * Plays a recorded run again as a cold Observable of its events — the same events as the
 * original, in order — without a model call or a tool execution, at the recorded pace (or
 * faster, or at once) on the scheduler: in virtual time with a `TestScheduler`, so a marble test
 * can be written from any recording. Feed it to `withState` to show the run again.
 *
 * A log that stops before the run's end replays up to the cut, then errors with
 * `RunLogTruncatedError` saying where; a tool call whose recorded result is missing errors with
 * `MissingToolResultError` where the result should have been (a replay never runs a tool).
 * Also takes the older `RecordedEvent[]` (what `recordRun(entries)` pushes).
 *
 * @param log A log (`readRunLog`), or `RecordedEvent`s.
 * @param options Pace and scheduler.
 * @return The run's events.
 *
 * @example
 * const { events$, state$ } = withState(replayRun(readRunLogFile('run.jsonl'), { speed: 4 }));
 * state$.subscribe(render);
 * events$.subscribe();
 */
export function replayRun(
  log: RunLog | readonly RecordedEvent[],
  options: ReplayOptions = {},
): Observable<AgentEvent> {
  const entries: readonly Timed[] = Array.isArray(log)
    ? (log as readonly RecordedEvent[])
    : (log as RunLog).events;
  const cut = Array.isArray(log) ? undefined : (log as RunLog).cut;
  // A whole log must hold every result; the older entries may be a crashed run's (`Agent.resume`).
  const checking = !Array.isArray(log) && !cut;
  const speed = options.speed ?? 1;
  const scheduler = options.scheduler ?? asyncScheduler;
  return new Observable<AgentEvent>((subscriber) => {
    const tools = new ToolResultCheck();
    /** Emits entry `i`; false when the replay stopped there. */
    const emit = (i: number): boolean => {
      const { event } = entries[i] as Timed;
      const missing = checking ? tools.check(event) : undefined;
      if (missing) {
        subscriber.error(missing);
        return false;
      }
      subscriber.next(event);
      return !subscriber.closed;
    };
    const finish = () => {
      if (cut) subscriber.error(new RunLogTruncatedError(cut.line, cut.afterSeq, cut.reason));
      else subscriber.complete();
    };
    if (!(speed > 0) || speed === Infinity) {
      for (let i = 0; i < entries.length; i++) if (!emit(i)) return;
      finish();
      return;
    }
    let i = 0;
    let pending: Subscription | undefined;
    const emitDue = () => {
      const at = entries[i]?.at ?? 0;
      while (i < entries.length && (entries[i] as Timed).at <= at) if (!emit(i++)) return;
      if (i >= entries.length) return finish();
      pending = scheduler.schedule(emitDue, ((entries[i] as Timed).at - at) / speed);
    };
    pending = scheduler.schedule(emitDue, (entries[0]?.at ?? 0) / speed);
    return () => pending?.unsubscribe();
  });
}
