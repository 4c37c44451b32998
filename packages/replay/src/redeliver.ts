import { defer, merge, Subject, tap, type Observable } from 'rxjs';
import { MessageQueue, type AgentEvent, type ResumeRunConfig, type UserInput } from '@rxagent/core';
import type { RunInstrument } from '@rxagent/core/provider';
import type { ArrivalPoint, RecordedArrival } from './recorded-messages.js';

type Source = ResumeRunConfig['steering$'];

/** Where re-delivered messages go: the config's own queue, or a subject merged with its source. */
function target(source: Source): {
  source: Observable<UserInput> | MessageQueue;
  push: (message: UserInput) => void;
} {
  if (source instanceof MessageQueue) return { source, push: (m) => source.push(m) };
  const subject = new Subject<UserInput>();
  return { source: source ? merge(source, subject) : subject, push: (m) => subject.next(m) };
}

/** The event of the run that reaches `point` in the current step. */
function reaches(point: ArrivalPoint, event: AgentEvent): boolean {
  switch (point.kind) {
    case 'model-end':
      return event.type === 'message-end' && event.message.role === 'assistant';
    case 'tool-start':
      return event.type === 'tool-start' && event.toolCallId === point.toolCallId;
    case 'tool-end':
      return event.type === 'tool-end' && event.toolCallId === point.toolCallId;
    default:
      return false;
  }
}

/**
 * `config` with the recorded messages re-delivered: each goes to the run's `steering$` or
 * `followUp$` (the config's own queue, or merged with its source) when the run reaches the point
 * of the step where the original got it (`ArrivalPoint`) — the event that marks it, or else the
 * step's end, just before the run decides what follows the step. A step the run never reaches
 * gets nothing. Each subscription of the run delivers them again. No arrival: `config` as is.
 *
 * @param config The run's config (`runAgent` or `resumeRun`).
 * @param arrivals What to re-deliver (`recordedArrivals`).
 * @return The config that re-delivers them.
 *
 * @example
 * resumeRun(snapshot, withRecordedMessages({ model, tools }, recordedArrivals(log, point.index)));
 */
export function withRecordedMessages<
  C extends Pick<ResumeRunConfig, 'steering$' | 'followUp$' | 'instrument'>,
>(config: C, arrivals: readonly RecordedArrival[]): C {
  if (arrivals.length === 0) return config;
  const steering = target(config.steering$);
  const followUp = target(config.followUp$);
  // What the current subscription has still to deliver, and the step it is in.
  let left: readonly RecordedArrival[] = [];
  let step = 0;
  const deliver = (due: (a: RecordedArrival) => boolean): void => {
    if (!left.some(due)) return;
    const now = left.filter(due);
    left = left.filter((a) => !due(a));
    for (const a of now) (a.queue === 'steering' ? steering : followUp).push(a.message);
  };
  const own = config.instrument;
  const instrument: RunInstrument = {
    events: (events$, run) => {
      const watched = defer(() => {
        left = arrivals;
        step = 0;
        return events$.pipe(
          tap((event) => {
            if (event.type === 'turn-start') step = event.step;
            else if (left.length > 0) deliver((a) => a.step === step && reaches(a.point, event));
          }),
        );
      });
      return own?.events ? own.events(watched, run) : watched;
    },
    snapshot: (snapshot) => {
      own?.snapshot?.(snapshot);
      deliver((a) => a.step <= snapshot.step);
    },
  };
  if (own?.model) instrument.model = own.model.bind(own);
  if (own?.toolScope) instrument.toolScope = own.toolScope.bind(own);
  return { ...config, steering$: steering.source, followUp$: followUp.source, instrument };
}
