import type { Observable } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { RunInstrument } from '../turn/run-instrument.js';

const ATTACH = Symbol.for('rxagent.attachInstrument');

type Attach = (instrument: RunInstrument) => Observable<AgentEvent>;

/** Both instruments: `outer`'s events around `inner`'s, `outer`'s tool scope around `inner`'s. */
function combine(inner: RunInstrument | undefined, outer: RunInstrument): RunInstrument {
  if (!inner) return outer;
  const combined: RunInstrument = {
    events: (events$, run) => {
      const inside = inner.events ? inner.events(events$, run) : events$;
      return outer.events ? outer.events(inside, run) : inside;
    },
  };
  if (inner.toolScope || outer.toolScope) {
    combined.toolScope = <T>(
      call: Parameters<NonNullable<RunInstrument['toolScope']>>[0],
      execute: () => T,
    ): T => {
      const run = () => (inner.toolScope ? inner.toolScope(call, execute) : execute());
      return outer.toolScope ? outer.toolScope(call, run) : run();
    };
  }
  const innerModel = inner.model?.bind(inner);
  const outerModel = outer.model?.bind(outer);
  if (innerModel || outerModel) {
    combined.model = (model) => {
      const wrapped = innerModel ? innerModel(model) : model;
      return outerModel ? outerModel(wrapped) : wrapped;
    };
  }
  if (inner.snapshot || outer.snapshot) {
    combined.snapshot = (snapshot) => {
      inner.snapshot?.(snapshot);
      outer.snapshot?.(snapshot);
    };
  }
  return combined;
}

/**
 * Marks the Observable `runAgent` returns with how to make the same run with one more
 * instrument, so that an operator placed right after it (`runAgent(config).pipe(traceRun())`)
 * can become the run's instrument — with the run's scheduler and the tool scope — instead of
 * only reading its events. @internal
 */
export function markInstrumentable(
  run$: Observable<AgentEvent>,
  rerun: (instrument: RunInstrument | undefined) => Observable<AgentEvent>,
  configured: RunInstrument | undefined,
): Observable<AgentEvent> {
  const attach: Attach = (instrument) => rerun(combine(configured, instrument));
  Object.defineProperty(run$, ATTACH, { value: attach });
  return run$;
}

/**
 * The same run with `instrument` added, when `run$` is a run straight from `runAgent` (nothing
 * piped in between); otherwise undefined, and the caller reads the events as they are.
 *
 * @example
 * const traced$ = attachInstrument(run$, instrument) ?? run$.pipe(readEvents());
 */
export function attachInstrument(
  run$: Observable<AgentEvent>,
  instrument: RunInstrument,
): Observable<AgentEvent> | undefined {
  const attach = (run$ as unknown as Record<symbol, unknown>)[ATTACH];
  return typeof attach === 'function' ? (attach as Attach)(instrument) : undefined;
}
