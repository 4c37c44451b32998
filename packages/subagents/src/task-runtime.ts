import {
  asyncScheduler,
  catchError,
  filter,
  map,
  of,
  Subject,
  subscribeOn,
  take,
  type Observable,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import { BoundedText } from './bounded-text.js';
import { checkTaskChunk, checkTaskSpec } from './check-task.js';
import { TaskRuntimeDisposedError, SubagentConfigError } from './subagent-errors.js';
import type { TaskChunk, TaskEvent, TaskInfo, TaskResultChunk, TaskSpec } from './task-types.js';

/**
 * Options of `new TaskRuntime()`.
 *
 * @example
 * const tasks = new TaskRuntime({ scheduler: testScheduler, maxOutputChars: 4096 });
 */
export interface TaskRuntimeOptions {
  /** Where the work is subscribed and times are read. Default `asyncScheduler`. */
  scheduler?: SchedulerLike;
  /** Output characters kept per task (the tail). Default 32 000. */
  maxOutputChars?: number;
  /** Ended tasks kept for `list` / `output` (the oldest go first). Default 100. */
  maxEndedTasks?: number;
}

interface Entry {
  info: TaskInfo;
  output: BoundedText;
  subscription?: Subscription;
}

/**
 * A registry of background tasks, shared by the subagent tool's background mode and `bash`'s:
 * start an Observable of work, list the tasks, read an output tail, cancel, and subscribe to
 * `events$` for starts, output and ends. Own it by an `Agent` (`agent.own(tasks)`) so that
 * `reset()` cancels its tasks and `dispose()` disposes it.
 *
 * @example
 * const tasks = new TaskRuntime();
 * const { id } = tasks.start({ kind: 'demo', description: 'Count', work: interval(100).pipe(take(3), map((i) => ({ output: `${i}\n` }))) });
 * tasks.events$.subscribe((e) => e.type === 'task-end' && console.log(tasks.output(id)));
 */
export class TaskRuntime {
  private readonly tasks = new Map<string, Entry>();
  private readonly events = new Subject<TaskEvent>();
  private readonly scheduler: SchedulerLike;
  private readonly maxOutputChars: number;
  private readonly maxEndedTasks: number;
  private counter = 0;
  private disposed = false;

  /** Task starts, output and ends (hot). Completes on `dispose()`. */
  readonly events$: Observable<TaskEvent> = this.events.asObservable();

  constructor(options: TaskRuntimeOptions = {}) {
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.maxOutputChars = positive(options.maxOutputChars ?? 32_000, 'maxOutputChars');
    this.maxEndedTasks = positive(options.maxEndedTasks ?? 100, 'maxEndedTasks');
  }

  /**
   * Starts a task; its work is subscribed on the scheduler, so the id is returned first. A bad
   * spec throws `SubagentConfigError` before anything is registered.
   */
  start(spec: TaskSpec): TaskInfo {
    if (this.disposed) throw new TaskRuntimeDisposedError();
    checkTaskSpec(spec);
    const id = `task-${++this.counter}`;
    const entry: Entry = {
      info: {
        id,
        kind: spec.kind,
        description: spec.description,
        status: 'running',
        startedAt: this.scheduler.now(),
        outputChars: 0,
      },
      output: new BoundedText(this.maxOutputChars),
    };
    this.tasks.set(id, entry);
    this.events.next({ type: 'task-start', task: { ...entry.info } });
    let result: TaskResultChunk | undefined;
    entry.subscription = spec.work
      .pipe(
        subscribeOn(this.scheduler),
        map((given: TaskChunk) => {
          const chunk = checkTaskChunk(given);
          if ('output' in chunk) this.write(entry, chunk.output);
          else result = chunk;
        }),
        catchError((error: unknown) => {
          result = { result: error instanceof Error ? error.message : String(error), isError: true };
          return of(undefined);
        }),
      )
      .subscribe({
        complete: () => {
          const failed = result?.isError === true;
          this.end(entry, failed ? 'failed' : 'completed', result);
        },
      });
    return { ...entry.info };
  }

  /** Snapshots of the tasks, oldest first. */
  list(): TaskInfo[] {
    return [...this.tasks.values()].map((e) => ({ ...e.info }));
  }

  /** A snapshot of one task, or undefined. */
  get(id: string): TaskInfo | undefined {
    const entry = this.tasks.get(id);
    return entry ? { ...entry.info } : undefined;
  }

  /** The tail of a task's output (`tailChars` at most; default everything kept). */
  output(id: string, tailChars?: number): string | undefined {
    return this.tasks.get(id)?.output.tail(tailChars);
  }

  /** Emits the task's snapshot once it has ended (at once when it already has). */
  ended(id: string): Observable<TaskInfo> {
    const info = this.get(id);
    if (!info) return of();
    if (info.status !== 'running') return of(info);
    return this.events$.pipe(
      filter((e): e is Extract<TaskEvent, { type: 'task-end' }> => e.type === 'task-end' && e.task.id === id),
      take(1),
      map((e) => e.task),
    );
  }

  /** Cancels a running task (its work is unsubscribed); false when it is not running. */
  cancel(id: string): boolean {
    const entry = this.tasks.get(id);
    if (!entry || entry.info.status !== 'running') return false;
    this.end(entry, 'cancelled', { result: 'The task was cancelled.', isError: true });
    return true;
  }

  /** Cancels every running task and forgets every task (an agent's `reset()` calls this). */
  reset(): void {
    for (const id of [...this.tasks.keys()]) this.cancel(id);
    this.tasks.clear();
  }

  /** Cancels every running task, completes `events$`; `start` throws afterwards. */
  dispose(): void {
    if (this.disposed) return;
    this.reset();
    this.disposed = true;
    this.events.complete();
  }

  private write(entry: Entry, text: string): void {
    if (entry.info.status !== 'running' || text === '') return;
    entry.output.push(text);
    entry.info = { ...entry.info, outputChars: entry.output.total };
    this.events.next({ type: 'task-output', task: { ...entry.info }, text });
  }

  private end(entry: Entry, status: TaskInfo['status'], result?: TaskResultChunk): void {
    if (entry.info.status !== 'running') return;
    const info: TaskInfo = { ...entry.info, status, endedAt: this.scheduler.now() };
    if (result) {
      info.result = result.result;
      info.isError = result.isError === true;
      if (result.usage) info.usage = result.usage;
    }
    entry.info = info;
    const subscription = entry.subscription;
    delete entry.subscription;
    subscription?.unsubscribe();
    this.forgetOldEnded();
    this.events.next({ type: 'task-end', task: { ...info } });
  }

  private forgetOldEnded(): void {
    const ended = [...this.tasks.values()].filter((e) => e.info.status !== 'running');
    for (const e of ended.slice(0, Math.max(0, ended.length - this.maxEndedTasks)))
      this.tasks.delete(e.info.id);
  }
}

function positive(value: number, name: string): number {
  if (!(value > 0))
    throw new SubagentConfigError(`TaskRuntime: ${name} must be a positive number, got ${value}.`);
  return value;
}
