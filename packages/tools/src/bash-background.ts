import type { TaskChunk, TaskRuntime } from '@rxagent/subagents';
import { Observable, type SchedulerLike } from 'rxjs';
import { runCommand, type CommandOptions } from './run-command.js';

/**
 * What `bash` returns at once for `{ command, background: true }`: the id of the task that
 * runs it. Its output tail and result are read with `task_output`, and its end is announced
 * on the runtime's `events$` (and to the agent with `deliverTaskResults`).
 *
 * @example
 * const started = (await bash.execute({ command: 'npm run dev', background: true }, ctx)) as BashStarted;
 * tasks.output(started.taskId);
 */
export interface BashStarted {
  taskId: string;
  command: string;
}

/** What a background command needs besides the runtime. */
export type BackgroundCommand = Omit<CommandOptions, 'signal' | 'onOutput' | 'scheduler'> & {
  scheduler: SchedulerLike;
};

/**
 * Starts `command` as a task of `tasks`: its output goes to the task (bounded by the runtime),
 * its exit code is the result; cancelling the task (or the owning agent's reset or dispose)
 * kills the command's process group.
 */
export function startBackgroundCommand(tasks: TaskRuntime, command: BackgroundCommand): BashStarted {
  const work = new Observable<TaskChunk>((subscriber) => {
    const controller = new AbortController();
    runCommand({
      ...command,
      signal: controller.signal,
      onOutput: (text) => subscriber.next({ output: text }),
    }).then(
      (outcome) => {
        const how =
          outcome.ended === 'timeout'
            ? `killed after its timeout of ${command.timeoutMs} ms`
            : outcome.exitCode === null
              ? `killed by signal ${outcome.exitSignal ?? 'unknown'}`
              : `exit code ${outcome.exitCode}`;
        subscriber.next({ result: `[${how}]`, isError: outcome.exitCode !== 0 });
        subscriber.complete();
      },
      (error: unknown) => subscriber.error(error),
    );
    return () => controller.abort();
  });
  const info = tasks.start({ kind: 'bash', description: command.command, work });
  return { taskId: info.id, command: command.command };
}
