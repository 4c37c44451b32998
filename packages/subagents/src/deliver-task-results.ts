import type { Agent, UserInput } from '@rxagent/core';
import { filter, map, type Observable, type Subscription } from 'rxjs';
import type { TaskRuntime } from './task-runtime.js';
import type { TaskEvent, TaskInfo } from './task-types.js';

/**
 * How a finished task reaches the agent: `'follow-up'` (default) waits until the running run
 * would stop; `'steer'` is delivered after the tool that is running. Either way, an idle agent
 * whose transcript ends with its answer is resumed with the message.
 *
 * @example
 * deliverTaskResults(tasks, agent, { mode: 'steer' });
 */
export interface TaskDeliveryOptions {
  mode?: 'follow-up' | 'steer';
  /** Only tasks of these kinds (default every kind). */
  kinds?: readonly string[];
}

/**
 * The message that tells the parent a background task ended.
 *
 * @example
 * taskEndMessage({ id: 'task-1', kind: 'subagent', description: 'scout: map the repo', status: 'completed', result: 'Done.', startedAt: 0, outputChars: 0 });
 * // 'Background task task-1 (subagent: scout: map the repo) completed:\nDone.'
 */
export function taskEndMessage(task: TaskInfo): string {
  return `Background task ${task.id} (${task.kind}: ${task.description}) ${task.status}:\n${task.result ?? ''}`.trimEnd();
}

/**
 * The messages of tasks as they end, to give a `runAgent` run as `followUp$` or `steering$`.
 *
 * @example
 * runAgent({ model, tools, prompt, followUp$: taskMessages(tasks) });
 */
export function taskMessages(tasks: TaskRuntime, kinds?: readonly string[]): Observable<UserInput> {
  return tasks.events$.pipe(
    filter((e): e is Extract<TaskEvent, { type: 'task-end' }> => e.type === 'task-end'),
    filter((e) => !kinds || kinds.includes(e.task.kind)),
    map((e) => taskEndMessage(e.task)),
  );
}

/**
 * Delivers each ended task's result to `agent` as a message (see `TaskDeliveryOptions`), and
 * ties the runtime to the agent: `agent.reset()` cancels its tasks, `agent.dispose()`
 * disposes it (and ends the delivery).
 *
 * @example
 * const tasks = new TaskRuntime();
 * const agent = new Agent({ model, tools: [subagentTool({ agents, tasks }), taskOutputTool(tasks)] });
 * deliverTaskResults(tasks, agent, { mode: 'follow-up' });
 */
export function deliverTaskResults(
  tasks: TaskRuntime,
  agent: Pick<Agent, 'followUp' | 'inject' | 'isRunning' | 'own'>,
  options: TaskDeliveryOptions = {},
): Subscription {
  const subscription = taskMessages(tasks, options.kinds).subscribe((message) => {
    if (options.mode !== 'steer' && agent.isRunning) agent.followUp(message);
    else agent.inject(message);
  });
  const disown = agent.own({
    reset: () => tasks.reset(),
    dispose: () => {
      subscription.unsubscribe();
      tasks.dispose();
    },
  });
  subscription.add(disown);
  return subscription;
}
