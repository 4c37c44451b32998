import type { Usage } from '@rxagent/core';
import type { Observable } from 'rxjs';

/**
 * Where a background task is: running until it ends one of three ways.
 *
 * @example
 * const done = (status: TaskStatus) => status !== 'running';
 */
export type TaskStatus = 'running' | 'completed' | 'failed' | 'cancelled';

/**
 * What a task's work emits: output to keep (bounded, the tail is kept), or its result.
 *
 * @example
 * const chunks: TaskChunk[] = [{ output: 'compiling…\n' }, { result: 'Build passed.' }];
 */
export type TaskChunk = { output: string } | TaskResultChunk;

/**
 * A task's result: what `task_output` shows and what is delivered to the agent.
 *
 * @example
 * const done: TaskResultChunk = { result: 'Found 3 endpoints.', usage: { ...emptyUsage(), totalTokens: 900 } };
 */
export interface TaskResultChunk {
  result: string;
  isError?: boolean;
  /** Model usage the task spent (a background sub-agent's). */
  usage?: Usage;
}

/**
 * What `TaskRuntime.start` takes: the work is a cold Observable, subscribed once on the
 * runtime's scheduler; unsubscribing it is how the task is cancelled.
 *
 * @example
 * const spec: TaskSpec = { kind: 'bash', description: 'Run the tests', work: of({ output: 'ok\n' }, { result: 'exit 0' }) };
 */
export interface TaskSpec {
  /** What runs it: `'bash'`, `'subagent'`, or any name of yours. */
  kind: string;
  /** One line for people and for the model (`task_output` lists it). */
  description: string;
  work: Observable<TaskChunk>;
}

/**
 * A snapshot of one task (plain JSON).
 *
 * @example
 * const info: TaskInfo = tasks.start(spec);
 * console.log(info.id, info.status); // 'task-1' 'running'
 */
export interface TaskInfo {
  id: string;
  kind: string;
  description: string;
  status: TaskStatus;
  /** Scheduler time (epoch ms) the task was started / ended. */
  startedAt: number;
  endedAt?: number;
  /** The result text (or the error's message when it failed). */
  result?: string;
  isError?: boolean;
  /** Model usage the task spent, when it reported any. */
  usage?: Usage;
  /** Output characters the work produced in all (only the tail is kept). */
  outputChars: number;
}

/**
 * What the runtime tells its subscribers: a task started, wrote output, or ended.
 *
 * @example
 * tasks.events$.subscribe((e) => e.type === 'task-end' && console.log(e.task.id, e.task.status));
 */
export type TaskEvent =
  | { type: 'task-start'; task: TaskInfo }
  | { type: 'task-output'; task: TaskInfo; text: string }
  | { type: 'task-end'; task: TaskInfo };
