import type { AgentEvent } from './agent-event.js';

/**
 * One sub-run on the way from a run to the sub-run that emitted an event: the tool call that
 * started it, the sub-agent's name and the sub-run's id.
 *
 * @example
 * const step: SubrunStep = { toolCallId: 'call_1', agent: 'scout', runId: 'r1/call_1/0' };
 */
export interface SubrunStep {
  readonly toolCallId: string;
  readonly agent: string;
  readonly runId: string;
}

/**
 * A sub-run's event on its parent's stream, as it happens (a tool that runs an agent of its own
 * sends each of its events with `ctx.emitSubrun`). `path` goes from this run's tool call (first)
 * down to the sub-run that emitted `event` (last); a sub-run's own sub-runs arrive flattened, so
 * `event` is never itself a `subrun` event. The state fold counts the sub-run's usage in the
 * run's usage at once — when it is spent, not when the sub-run returns — so budgets and every
 * view see it, also when the call times out or the run is aborted.
 *
 * @example
 * run$.subscribe((e) => e.type === 'subrun' && console.log(e.path.map((s) => s.agent).join(' › '), e.event.type));
 */
export interface SubrunEvent {
  type: 'subrun';
  /** This run's tool call that runs the sub-run (`path[0].toolCallId`). */
  toolCallId: string;
  path: readonly SubrunStep[];
  event: AgentEvent;
}
