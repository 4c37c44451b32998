import {
  asyncScheduler,
  defer,
  Observable,
  tap,
  type MonoTypeOperatorFunction,
  type SchedulerLike,
} from 'rxjs';
import type { AgentEvent } from '@rxagent/core';
import { attachInstrument } from '@rxagent/core/provider';
import type { RecordedEvent } from '@rxagent/core/streams';
import { LogRecorder } from './log-recorder.js';
import type { ForkLineage } from './run-log-format.js';
import type { RunLogSink } from './run-log-sink.js';

/**
 * Options of `recordRun`.
 *
 * @example
 * recordRun(run$, fileLog('run.jsonl'), { scheduler: testScheduler });
 */
export interface RecordRunOptions {
  /** The clock of the times in the log when the run does not say (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
}

/** A run that says where it was forked from (`forkRun`). */
function lineageOf(run$: Observable<AgentEvent>): ForkLineage | undefined {
  return (run$ as Observable<AgentEvent> & { lineage?: ForkLineage }).lineage;
}

/**
 * Records a run to a log as it goes: a version header, then each event in its wire form (the
 * codec of `@rxagent/core/streams`: deltas, sequence numbers, references to messages already
 * written), each model request and what it answered, a snapshot per turn, and the run's end,
 * as JSON lines, to memory (`memoryLog`), a file (`fileLog`) or a `Session` (`sessionLog`).
 * The returned Observable is the run's events; it completes once the sink has stored the log.
 *
 * Requests, answers and snapshots are recorded when `run$` comes straight from `runAgent`,
 * `resumeRun` or `forkRun` (the recorder becomes the run's instrument); a run piped through
 * other operators first is recorded by its events only (`header.recorded: 'events'`).
 *
 * The older form, `recordRun(entries, scheduler?)`, is an operator pushing `RecordedEvent`s to
 * an array (what `Agent.resume` reads).
 *
 * @param run$ The run, e.g. `runAgent(config)`.
 * @param sink Where the log's lines go.
 * @return The run's events, recorded as they pass.
 *
 * @example
 * const log = memoryLog();
 * await lastValueFrom(recordRun(runAgent({ model, tools, prompt: 'Plan the release' }), log));
 * replayRun(readRunLog(log.lines)).subscribe(render);
 */
export function recordRun(
  run$: Observable<AgentEvent>,
  sink: RunLogSink,
  options?: RecordRunOptions,
): Observable<AgentEvent>;
export function recordRun(
  log: RecordedEvent[],
  scheduler?: SchedulerLike,
): MonoTypeOperatorFunction<AgentEvent>;
export function recordRun(
  first: Observable<AgentEvent> | RecordedEvent[],
  second?: RunLogSink | SchedulerLike,
  options: RecordRunOptions = {},
): Observable<AgentEvent> | MonoTypeOperatorFunction<AgentEvent> {
  if (Array.isArray(first))
    return recordEntries(first, (second as SchedulerLike | undefined) ?? asyncScheduler);
  return recordToSink(first, second as RunLogSink, options);
}

function recordToSink(
  run$: Observable<AgentEvent>,
  sink: RunLogSink,
  options: RecordRunOptions,
): Observable<AgentEvent> {
  return new Observable<AgentEvent>((subscriber) => {
    const recorder = new LogRecorder(sink, options.scheduler ?? asyncScheduler, lineageOf(run$));
    const source$ = attachInstrument(run$, recorder.instrument()) ?? run$;
    let ended = false;
    // A sink that stores synchronously (memory) ends the recording at once, in virtual time too.
    const close = (then: () => void) => {
      ended = true;
      let closing: void | Promise<void>;
      try {
        closing = sink.close();
      } catch (error) {
        subscriber.error(error);
        return;
      }
      if (closing instanceof Promise) closing.then(then, (error: unknown) => subscriber.error(error));
      else then();
    };
    const subscription = source$.subscribe({
      next: (event) => {
        recorder.event(event);
        subscriber.next(event);
      },
      error: (error: unknown) => {
        recorder.end('error', error);
        close(() => subscriber.error(error));
      },
      complete: () => {
        recorder.end('completed');
        close(() => subscriber.complete());
      },
    });
    return () => {
      subscription.unsubscribe();
      if (!ended) {
        recorder.end('cancelled');
        void Promise.resolve(sink.close()).catch(() => undefined);
      }
    };
  });
}

function recordEntries(log: RecordedEvent[], scheduler: SchedulerLike): MonoTypeOperatorFunction<AgentEvent> {
  return (source) =>
    defer(() => {
      const start = scheduler.now();
      return source.pipe(tap((event) => log.push({ at: scheduler.now() - start, event })));
    });
}
