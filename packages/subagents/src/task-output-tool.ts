import { tool, type Tool } from '@rxagent/core';
import { map, type Observable } from 'rxjs';
import { z } from 'zod';
import type { TaskRuntime } from './task-runtime.js';
import type { TaskInfo } from './task-types.js';

const parameters = z.object({
  taskId: z.string().optional().describe('The task to read; omit it to list every task.'),
  tailChars: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Characters of output to show from the end (default 4000).'),
  wait: z.boolean().optional().describe('Wait until the task has ended before answering.'),
  cancel: z.boolean().optional().describe('Cancel the task instead of reading it.'),
});

type TaskOutputArgs = z.infer<typeof parameters>;

function line(task: TaskInfo): string {
  const tokens = task.usage ? `, ${task.usage.totalTokens} tokens` : '';
  return `${task.id} [${task.status}] ${task.kind}: ${task.description}${tokens}`;
}

function report(tasks: TaskRuntime, task: TaskInfo, tailChars: number): string {
  const output = tasks.output(task.id, tailChars) ?? '';
  const cut =
    task.outputChars > output.length ? ` (last ${output.length} of ${task.outputChars} characters)` : '';
  const parts = [line(task)];
  if (output) parts.push(`Output${cut}:\n${output}`);
  if (task.result !== undefined) parts.push(`Result:\n${task.result}`);
  else if (task.status === 'running') parts.push('Still running: its result will arrive as a message.');
  return parts.join('\n\n');
}

/**
 * A tool the model uses to check on background tasks (`task_output`): list them, read one's
 * status, output tail and result, wait for it to end, or cancel it.
 *
 * @example
 * const tasks = new TaskRuntime();
 * const agent = new Agent({ model, tools: [subagentTool({ agents, tasks }), bashTool({ root, tasks }), taskOutputTool(tasks)] });
 */
export function taskOutputTool(tasks: TaskRuntime, name = 'task_output'): Tool<TaskOutputArgs, string> {
  return tool({
    name,
    description:
      'Check background tasks: with no taskId, list them; with a taskId, show its status, the end of its output and its result ' +
      '(wait: true waits for it to end; cancel: true cancels it).',
    parameters,
    timeoutMs: 600_000,
    execute: ({ taskId, tailChars = 4000, wait, cancel }): string | Observable<string> => {
      if (taskId === undefined) {
        const all = tasks.list();
        return all.length ? all.map(line).join('\n') : 'No background tasks.';
      }
      const task = tasks.get(taskId);
      if (!task) {
        const known = tasks.list().map((t) => t.id);
        throw new Error(
          `No task "${taskId.slice(0, 100)}". Known tasks: ${known.length ? known.join(', ') : 'none'}.`,
        );
      }
      if (cancel)
        return tasks.cancel(taskId) ? `Cancelled ${taskId}.` : `${taskId} was not running (${task.status}).`;
      if (!wait || task.status !== 'running') return report(tasks, task, tailChars);
      return tasks.ended(taskId).pipe(map((ended) => report(tasks, ended, tailChars)));
    },
  });
}
