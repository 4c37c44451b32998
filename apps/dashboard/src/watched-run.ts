import { RxAgentError, withState, type AgentEvent } from '@rxagent/core';
import type { Observable } from 'rxjs';
import type { DashboardAgent } from './run-registry.js';

/**
 * How to act on a run the dashboard only watches (it runs elsewhere). Each is optional: a
 * missing one makes that button answer 409 (`RunControlError`), so nothing is ever approved
 * by default. A rejected promise means the action did not reach the run.
 *
 * @example
 * const controls: RunControls = { approve: (id) => runs.approve(runId, id), cancel: () => runs.cancel(runId) };
 */
export interface RunControls {
  approve?(toolCallId: string): Promise<void> | void;
  reject?(toolCallId: string, reason?: string): Promise<void> | void;
  cancel?(): Promise<void> | void;
}

/**
 * A button of a watched run that this run cannot take (no such control was given). The
 * dashboard answers it with 409 and this message.
 *
 * @example
 * try { await agent.approve('call_1'); } catch (e) { if (RunControlError.isInstance(e)) console.log(e.message); }
 */
export class RunControlError extends RxAgentError {
  static override readonly kind: string = 'RunControlError';
}

/**
 * A run watched from its event stream, as a dashboard agent: its state is
 * `withState(events$)`, folded here, so its card shows what an in-process run's shows.
 * `approve` / `reject` go through `controls`, only for a call the folded state shows waiting
 * and not yet decided from here (else `false`: 409 "not waiting"); a decision that fails is
 * forgotten, so it may be tried again and the call still counts as undecided.
 *
 * @example
 * const agent = watchedRunAgent(remoteEvents$, { approve: (id) => remote.approve(id) });
 * registry.add(agent, 'remote run');
 */
export function watchedRunAgent(events: Observable<AgentEvent>, controls: RunControls = {}): DashboardAgent {
  const { events$, state$ } = withState(events);
  const decided = new Set<string>();
  const decide = async (
    toolCallId: string,
    send: (() => Promise<void> | void) | undefined,
  ): Promise<boolean> => {
    if (!send) {
      throw new RunControlError('This run is only watched here: decide its approvals where it runs.');
    }
    const waiting = state$.value.pendingApprovals.some((a) => a.toolCallId === toolCallId);
    if (!waiting || decided.has(toolCallId)) return false;
    decided.add(toolCallId);
    try {
      await send();
      return true;
    } catch (error) {
      decided.delete(toolCallId);
      throw error;
    }
  };
  return {
    events$,
    state$,
    approve: (toolCallId) => decide(toolCallId, controls.approve && (() => controls.approve?.(toolCallId))),
    reject: (toolCallId, reason) =>
      decide(toolCallId, controls.reject && (() => controls.reject?.(toolCallId, reason))),
    abort: async () => {
      if (!controls.cancel)
        throw new RunControlError('This run is only watched here: cancel it where it runs.');
      await controls.cancel();
    },
  };
}
