import type { Observable, SchedulerLike } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { ChatModel } from '../model/chat-model.js';
import type { RunSnapshot } from './run-snapshot.js';
import type { ToolScopeCall } from '../tools/tool-scope.js';
import type { InstrumentedRequest } from './instrumented-request.js';

/**
 * The run an instrument is attached to, as known when it is subscribed.
 *
 * @example
 * const run: InstrumentedRun = { runId: 'r1', scheduler: asyncScheduler, provider: 'openai', modelId: 'gpt-4o-mini' };
 */
export interface InstrumentedRun {
  runId: string;
  /** The run's scheduler: where an instrument takes its times from. */
  scheduler: SchedulerLike;
  provider: string;
  modelId: string;
  /** The model's `secrets`: an instrument that records errors redacts them (`redactError`). */
  secrets?: readonly string[];
  /** What the run asks of its model (request options, output kind, system prompt, tools). */
  request?: InstrumentedRequest;
}

/**
 * A seam for tracing and metrics (`@rxagent/otel` implements it): `events` wraps the run's
 * events once per subscription; `toolScope` runs each tool's execution — middlewares and
 * `execute`, and the subscription of an Observable they return — inside a scope of its own,
 * so that work the tool starts (HTTP, database calls) can be attributed to the call. Both are
 * optional; a run without an instrument pays nothing.
 *
 * @example
 * const instrument: RunInstrument = {
 *   events: (events$, run) => events$.pipe(tap((e) => console.log(run.runId, e.type))),
 *   toolScope: (call, execute) => execute(),
 * };
 * runAgent({ model, prompt: 'Hi', instrument });
 */
export interface RunInstrument {
  /** Called when the run is subscribed, with its events; returns the events the run emits. */
  events?(events$: Observable<AgentEvent>, run: InstrumentedRun): Observable<AgentEvent>;
  /**
   * Calls `execute` (synchronously, once) and returns what it returns. Entered for the call to
   * `execute`, and again for the subscription of an Observable the tool or a middleware returned.
   */
  toolScope?<T>(call: ToolScopeCall, execute: () => T): T;
  /**
   * Wraps the run's model, to see each request and what it answered (a recorder,
   * `@rxagent/replay`). The wrapper keeps the model's `provider`, `modelId` and `secrets`.
   */
  model?(model: ChatModel): ChatModel;
  /** Called with each turn's snapshot, as `onSnapshot` is (and beside it). */
  snapshot?(snapshot: RunSnapshot): void;
}
