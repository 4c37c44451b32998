import type { Subject } from 'rxjs';
import { takeUntil, type Observable } from 'rxjs';
import type { AgentEndEvent, AgentEvent } from '../events/agent-event.js';
import { stopSignal, type StopSignal } from '../events/stop-signal.js';
import type { Usage } from '../messages/types.js';
import { emptyUsage } from '../messages/usage.js';
import type { AgentState } from '../state/agent-state.js';
import type { StateCell } from '../state/state-cell.js';
import { foldRun } from '../state/fold-run.js';
import { addSpent } from '../state/spent-usage.js';
import type { AgentRunResult } from './agent-types.js';

/** @internal The run an `Agent` has going. */
export interface ActiveRun {
  controller: AbortController;
  /** Cancels the run (`takeUntil`): reachable before `subscribe` returns, so a listener can stop a synchronous run. */
  cancel: Subject<void>;
  /** A silent abort: the partial answer is dropped. */
  silent: boolean;
  /** Where this run's messages start in the transcript. */
  before: number;
}

/** @internal What an `Agent` lends its run. */
export interface AgentRunHost {
  readonly state: StateCell<AgentState>;
  now(): number;
  dispatch(event: AgentEvent): void;
  /** Writes the transcript to the session (when the agent has one). */
  sync(): void;
  /** The run is over: no run active, idle waiters told. */
  settle(): void;
}

/**
 * One `Agent` run: the run's events folded into the agent's state and handed to its listeners,
 * and the run's result when it ends — its usage by the one rule every view counts with
 * (`spentUsage`), so a cancelled run's result counts summary calls and sub-runs too.
 *
 * @example
 * return agentRun(runAgent(config), active, host);
 */
export function agentRun<TOutput>(
  run$: Observable<AgentEvent>,
  active: ActiveRun,
  host: AgentRunHost,
): Promise<AgentRunResult<TOutput>> {
  return new Promise<AgentRunResult<TOutput>>((resolve, reject) => {
    let end: AgentEndEvent | undefined;
    let spent: Usage = emptyUsage();
    run$
      .pipe(
        takeUntil(active.cancel),
        foldRun(host.state, { now: () => host.now(), dropPartial: () => active.silent }),
      )
      .subscribe({
        next: (event) => {
          // The run may have repaired the transcript it starts from.
          if (event.type === 'agent-start' && event.messages) active.before = event.messages.length;
          if (event.type === 'agent-end') end = event;
          spent = addSpent(spent, event);
          host.dispatch(event);
          if (event.type === 'message-end' || event.type === 'agent-start') host.sync();
        },
        error: (error: unknown) => {
          host.settle();
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        complete: () => {
          host.settle();
          if (!end) {
            const signal = stopSignal('user-requested', 'The run was cancelled.', { source: 'abort' });
            return resolve(cancelled(host.state.value, active, signal, spent));
          }
          const result: AgentRunResult<TOutput> = {
            reason: end.reason,
            signal: end.signal,
            messages: end.messages,
            usage: end.usage,
            steps: end.steps,
          };
          // Validated against the agent's own output schema by the run.
          if (end.output !== undefined) result.output = end.output as TOutput;
          resolve(result);
        },
      });
  });
}

function cancelled<TOutput>(
  state: AgentState,
  active: ActiveRun,
  signal: StopSignal,
  usage: Usage,
): AgentRunResult<TOutput> {
  return {
    reason: signal.reason,
    signal,
    messages: state.messages.slice(active.before),
    usage,
    steps: state.step,
  };
}
