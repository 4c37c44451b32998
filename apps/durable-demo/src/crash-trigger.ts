import type { AgentEvent } from '@rxagent/core';
import { isWorkerProgress } from './worker-progress.js';

/**
 * When the demo kills the worker running the run: while a tool runs (`tool`: right after
 * `append_line` wrote its line, before its result is recorded) or while the model streams
 * (`model`: a few words into a model call).
 *
 * @example
 * const moment: KillMoment = 'model';
 */
export type KillMoment = 'tool' | 'model';

/** Which call the kill hits: the third tool call, or the model call after the second. */
const KILLED_CALL = 'call_3';
const TOOLS_BEFORE_MODEL_KILL = 2;
const DELTAS_BEFORE_MODEL_KILL = 2;

/**
 * A watcher's decision of when to kill: fed every event of the watched run, it returns the id
 * of the worker to kill at the chosen moment, once. The worker running the run is the one its
 * tools last reported (`WorkerProgress`): a run stays on its worker until that worker dies.
 *
 * @example
 * const killAt = crashTrigger('tool');
 * runs.watchRun(id).subscribe((event) => {
 *   const victim = killAt(event);
 *   if (victim) void workers.get(victim)?.kill();
 * });
 */
export function crashTrigger(moment: KillMoment): (event: AgentEvent) => string | undefined {
  let current: string | undefined;
  let fired = false;
  let toolsEnded = 0;
  let deltas = 0;
  return (event) => {
    if (fired) return undefined;
    let victim: string | undefined;
    if (event.type === 'tool-update' && isWorkerProgress(event.progress)) {
      current = event.progress.worker;
      if (moment === 'tool' && event.toolCallId === KILLED_CALL && event.progress.stage === 'effect-done') {
        victim = current;
      }
    } else if (event.type === 'tool-end') {
      toolsEnded++;
    } else if (
      moment === 'model' &&
      event.type === 'message-update' &&
      toolsEnded === TOOLS_BEFORE_MODEL_KILL
    ) {
      if (++deltas >= DELTAS_BEFORE_MODEL_KILL) victim = current;
    }
    if (victim) fired = true;
    return victim;
  };
}
