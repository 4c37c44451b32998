import { asyncScheduler, finalize, tap } from 'rxjs';
import type { RunInstrument } from '@rxagent/core/provider';
import { LogRecorder } from './log-recorder.js';
import type { RunLogSink } from './run-log-sink.js';

/**
 * `recordRun` as a run's `instrument`, for where there is no run Observable to wrap — an `Agent`
 * (`new Agent({ instrument: recordingInstrument(sink) })`): the run's events, model requests and
 * answers and snapshots go to `sink`, which is closed when the run ends. One run per sink: an
 * Agent that runs several prompts needs a sink per prompt.
 *
 * @example
 * const agent = new Agent({ model, tools, instrument: recordingInstrument(fileLog('run.jsonl')) });
 * await agent.prompt('Plan the release');
 */
export function recordingInstrument(sink: RunLogSink): RunInstrument {
  // A run's hooks are called as it starts (model, then events), synchronously: the recorder made
  // for its model is the one its events and snapshots go to (one run per sink).
  let current: LogRecorder | undefined;
  const recorderOf = () => (current ??= new LogRecorder(sink, asyncScheduler, undefined));
  return {
    model: (model) => {
      current = new LogRecorder(sink, asyncScheduler, undefined);
      return current.wrapModel(model);
    },
    snapshot: (snapshot) => current?.takeSnapshot(snapshot),
    events: (events$, run) => {
      const recorder = recorderOf();
      const hooks = recorder.instrument();
      const recorded$ = hooks.events ? hooks.events(events$, run) : events$;
      let outcome: 'completed' | 'error' | 'cancelled' = 'cancelled';
      let failure: unknown;
      return recorded$.pipe(
        tap({
          next: (event) => recorder.event(event),
          complete: () => (outcome = 'completed'),
          error: (error: unknown) => {
            outcome = 'error';
            failure = error;
          },
        }),
        finalize(() => {
          recorder.end(outcome, failure);
          void Promise.resolve(sink.close()).catch(() => undefined);
        }),
      );
    },
  };
}
