import {
  asyncScheduler,
  defer,
  filter,
  finalize,
  map,
  ReplaySubject,
  startWith,
  throwError,
  type Observable,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import { RunReleasedError } from '../results/result-errors.js';
import { parseEventId } from './wire/event-id.js';
import { SSEResumeRefusedError } from './wire-errors.js';

/**
 * An event with its position in the run (1-based): the `id` of its SSE message, which a
 * reconnecting client sends back as `Last-Event-ID`.
 *
 * @example
 * hub.join('41').subscribe(({ id, event }) => console.log(id, event.type)); // from id 42 on
 */
export interface SequencedEvent {
  id: number;
  event: AgentEvent;
}

/**
 * Options of `shareRun`.
 *
 * @example
 * shareRun(runAgent(config), { replay: 5000 });
 */
export interface ShareRunOptions {
  /** How many of the latest events are kept for late joiners and reconnects (default 1000). */
  replay?: number;
  /** How long the buffer is kept after the run ended and the last watcher left, for clients
   * that reconnect or join just then (default 0: released at once). */
  lingerMs?: number;
  /** Scheduler of `lingerMs` (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
}

/**
 * One live run watched by many clients (see `shareRun`).
 *
 * @example
 * const hub: RunHub = shareRun(runAgent(config));
 * hub.join().subscribe(({ id, event }) => send(id, event));
 */
export interface RunHub {
  /** Joins the run: first the buffered events after `lastEventId` (all that are kept when it is
   * missing), then the live ones; completes or errors as the run does. The first join starts
   * the run. When events after `lastEventId` have left the buffer, a `warning` event says how
   * many were missed. After the run ended and its last watcher left, errors with
   * `RunReleasedError`; an id of another run (`<runId>:<seq>` from `toSSEStream`) or of an
   * event the run never had errors with `SSEResumeRefusedError`. */
  join(lastEventId?: string | number | null): Observable<SequencedEvent>;
  /** The run's events for a watcher joining now (`join()` without the ids). */
  readonly events$: Observable<AgentEvent>;
  /** The run's id, from its `agent-start` (undefined before it). */
  readonly runId: string | undefined;
  /** Watchers joined now. */
  readonly watchers: number;
  /** True once the run ended and the buffer was released (no watcher left). */
  readonly released: boolean;
  /** Cancels the run (unsubscribes it) and releases the buffer once the watchers have left. */
  stop(): void;
}

/**
 * Shares one run with many watchers on RxJS multicasting (a `ReplaySubject` of the latest
 * events): the run is subscribed once, at the first `join`, and goes on while watchers come and
 * go (an SSE client reconnecting must find it still running). A late joiner gets the buffered
 * events first; a client reconnecting with `Last-Event-ID` gets exactly the events after that
 * id. Memory is bounded by `replay` events and released when the run has ended and the last
 * watcher has left (a watcher leaves when its stream ends, too), or `lingerMs` later.
 *
 * @param run$ A run, e.g. `runAgent(config)`.
 * @param options `replay`: how many events to keep (default 1000).
 * @return A `RunHub`.
 *
 * @example
 * const hub = shareRun(runAgent(config));
 * http.createServer((req, res) => sendSSE(res, hub, { request: req })).listen(8080);
 */
export function shareRun(run$: Observable<AgentEvent>, options: ShareRunOptions = {}): RunHub {
  const replay = Math.max(1, options.replay ?? 1000);
  let subject: ReplaySubject<SequencedEvent> | undefined = new ReplaySubject<SequencedEvent>(replay);
  let subscription: Subscription | undefined;
  let lastId = 0;
  let runId: string | undefined;
  let watchers = 0;
  let ended = false;

  const lingerMs = options.lingerMs ?? 0;
  const scheduler = options.scheduler ?? asyncScheduler;
  let linger: Subscription | undefined;
  const release = () => {
    linger?.unsubscribe();
    linger = undefined;
    if (!ended || watchers > 0) return;
    if (lingerMs > 0) linger = scheduler.schedule(() => (subject = undefined), lingerMs);
    else subject = undefined;
  };
  const start = (target: ReplaySubject<SequencedEvent>) => {
    subscription = run$
      .pipe(
        map((event) => {
          if (runId === undefined && event.type === 'agent-start') runId = event.runId;
          return { id: ++lastId, event };
        }),
        finalize(() => {
          ended = true;
          release();
        }),
      )
      .subscribe(target);
  };

  const join = (lastEventId?: string | number | null): Observable<SequencedEvent> =>
    defer(() => {
      const target = subject;
      if (!target) {
        return throwError(
          () =>
            new RunReleasedError(
              'This run has ended and its last watcher left, so its events were released: join a run while it is watched, or record it with recordRun to show it later.',
            ),
        );
      }
      const resume = parseEventId(lastEventId);
      if (!subscription && !ended) start(target);
      const refusal = resume && refused(resume.runId, resume.seq);
      if (refusal) return throwError(() => new SSEResumeRefusedError(refusal));
      watchers++;
      linger?.unsubscribe();
      const after = resume?.seq ?? 0;
      // Called now, the buffer holds the ids from `firstKept` to `lastId`.
      const firstKept = Math.max(1, lastId - replay + 1);
      const live$ = target.pipe(
        filter((entry) => entry.id > after),
        finalize(() => {
          watchers--;
          release();
        }),
      );
      const missed = firstKept - 1 - after;
      if (missed <= 0) return live$;
      const warning: SequencedEvent = {
        id: firstKept - 1,
        event: {
          type: 'warning',
          message: `Missed ${missed} event(s) of this run: they left the replay buffer (shareRun { replay: ${replay} }). Raise replay to keep more.`,
        },
      };
      return live$.pipe(startWith(warning));
    });

  const refused = (id: string | undefined, seq: number): string | undefined => {
    if (id !== undefined && runId !== undefined && id !== runId)
      return `Cannot resume: Last-Event-ID names run "${id}", but this stream is run "${runId}". Read this run from its start.`;
    if (seq > lastId)
      return `Cannot resume after event ${seq}: this run has sent ${lastId} so far (a restarted server, or an id of another stream). Read this run from its start.`;
    return undefined;
  };

  return {
    join,
    get runId() {
      return runId;
    },
    events$: defer(() => join()).pipe(map((entry) => entry.event)),
    get watchers() {
      return watchers;
    },
    get released() {
      return subject === undefined;
    },
    stop() {
      ended = true;
      subscription?.unsubscribe();
      subject?.complete();
      linger?.unsubscribe();
      if (watchers === 0) subject = undefined;
    },
  };
}
