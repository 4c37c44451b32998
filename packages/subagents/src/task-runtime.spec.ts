import { createTestScheduler } from '@rxagent/testing';
import { map, NEVER, of, Subject, throwError } from 'rxjs';
import { SubagentConfigError } from './subagent-errors.js';
import { TaskRuntime } from './task-runtime.js';
import type { TaskChunk, TaskEvent } from './task-types.js';

const kinds = (events: TaskEvent[]) => events.map((e) => `${e.type}:${e.task.id}:${e.task.status}`);

describe('TaskRuntime', () => {
  it('starts work on the scheduler, so the id comes back before any of it runs', () => {
    createTestScheduler().run(({ cold, expectObservable, flush }) => {
      const tasks = new TaskRuntime();
      const e1 = cold<TaskChunk>('-a-b-(r|)', {
        a: { output: 'one\n' },
        b: { output: 'two\n' },
        r: { result: 'done' },
      });
      const info = tasks.start({ kind: 'demo', description: 'Counting', work: e1 });
      expect(info).toEqual({
        id: 'task-1',
        kind: 'demo',
        description: 'Counting',
        status: 'running',
        startedAt: 0,
        outputChars: 0,
      });
      expectObservable(tasks.events$.pipe(map((e) => e.type[5]))).toBe('-o-o-e');
      flush();
      expect(e1.subscriptions).toEqual([{ subscribedFrame: 0, unsubscribedFrame: 5 }]);
      expect(tasks.get('task-1')).toMatchObject({
        status: 'completed',
        result: 'done',
        isError: false,
        endedAt: 5,
        outputChars: 8,
      });
      expect(tasks.output('task-1')).toBe('one\ntwo\n');
      expect(tasks.output('task-1', 4)).toBe('two\n');
    });
  });

  it('keeps only the tail of the output, counting all of it', () => {
    createTestScheduler().run(({ flush }) => {
      const tasks = new TaskRuntime({ maxOutputChars: 10 });
      const chunks: TaskChunk[] = Array.from({ length: 100 }, (_, i) => ({ output: `${i % 10}` }));
      tasks.start({ kind: 'bash', description: 'loud', work: of(...chunks) });
      flush();
      expect(tasks.output('task-1')).toBe('0123456789');
      expect(tasks.get('task-1')?.outputChars).toBe(100);
    });
  });

  it('cancel() unsubscribes the work and ends the task as cancelled', () => {
    createTestScheduler().run(({ cold, flush }) => {
      const tasks = new TaskRuntime();
      const events: TaskEvent[] = [];
      tasks.events$.subscribe((e) => events.push(e));
      const e1 = cold<TaskChunk>('-a----|', { a: { output: 'x' } });
      tasks.start({ kind: 'demo', description: 'long', work: e1 });
      cold('---x').subscribe(() => expect(tasks.cancel('task-1')).toBe(true));
      flush();
      expect(e1.subscriptions).toEqual([{ subscribedFrame: 0, unsubscribedFrame: 3 }]);
      expect(kinds(events)).toEqual([
        'task-start:task-1:running',
        'task-output:task-1:running',
        'task-end:task-1:cancelled',
      ]);
      expect(tasks.cancel('task-1')).toBe(false);
      expect(tasks.cancel('nope')).toBe(false);
    });
  });

  it('a failing work ends the task as failed with its message, and the runtime lives on', () => {
    createTestScheduler().run(({ flush }) => {
      const tasks = new TaskRuntime();
      tasks.start({ kind: 'demo', description: 'bad', work: throwError(() => new Error('disk full')) });
      tasks.start({ kind: 'demo', description: 'good', work: of({ result: 'fine' }) });
      flush();
      expect(tasks.list().map((t) => [t.id, t.status, t.result])).toEqual([
        ['task-1', 'failed', 'disk full'],
        ['task-2', 'completed', 'fine'],
      ]);
    });
  });

  it('ended() emits the snapshot once the task ends (at once when it has)', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const tasks = new TaskRuntime();
      tasks.start({
        kind: 'demo',
        description: 'x',
        work: cold<TaskChunk>('--(r|)', { r: { result: 'ok' } }),
      });
      expectObservable(tasks.ended('task-1').pipe(map((t) => t.status))).toBe('--(c|)', { c: 'completed' });
      expectObservable(tasks.ended('unknown')).toBe('|');
    });
  });

  it('forgets the oldest ended tasks beyond maxEndedTasks', () => {
    createTestScheduler().run(({ flush }) => {
      const tasks = new TaskRuntime({ maxEndedTasks: 2 });
      for (let i = 0; i < 4; i++)
        tasks.start({ kind: 'demo', description: `${i}`, work: of({ result: `${i}` }) });
      tasks.start({ kind: 'demo', description: 'running', work: NEVER });
      flush();
      expect(tasks.list().map((t) => t.id)).toEqual(['task-3', 'task-4', 'task-5']);
    });
  });

  it('reset() cancels and forgets every task; dispose() also refuses new ones and completes events$', () => {
    const work = new Subject<TaskChunk>();
    createTestScheduler().run(({ flush }) => {
      const tasks = new TaskRuntime();
      let completed = false;
      tasks.events$.subscribe({ complete: () => (completed = true) });
      tasks.start({ kind: 'demo', description: 'x', work });
      flush();
      expect(work.observed).toBe(true);
      tasks.reset();
      expect(work.observed).toBe(false);
      expect(tasks.list()).toEqual([]);
      tasks.start({ kind: 'demo', description: 'y', work });
      flush();
      tasks.dispose();
      expect(work.observed).toBe(false);
      expect(completed).toBe(true);
      expect(() => tasks.start({ kind: 'demo', description: 'z', work })).toThrow(
        'The task runtime was disposed (its agent was disposed): create a new TaskRuntime to start tasks.',
      );
    });
  });

  it('refuses bad limits with a clear error', () => {
    expect(() => new TaskRuntime({ maxOutputChars: 0 })).toThrow(
      'TaskRuntime: maxOutputChars must be a positive number, got 0.',
    );
  });

  it('refuses a bad start before registering anything, saying what to pass', () => {
    const tasks = new TaskRuntime();
    const events: TaskEvent[] = [];
    tasks.events$.subscribe((e) => events.push(e));
    const bad: unknown[] = [
      undefined,
      { kind: 'demo', description: 'No work' },
      { kind: 'demo', description: 'A promise', work: Promise.resolve({ result: 'x' }) },
      { kind: 42, description: 'Bad kind', work: of({ result: 'x' }) },
      { kind: 'demo', work: of({ result: 'x' }) },
    ];
    for (const spec of bad) {
      let error: unknown;
      try {
        tasks.start(spec as never);
      } catch (e) {
        error = e;
      }
      expect(SubagentConfigError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /^TaskRuntime\.start needs \{ kind: string, description: string, work: Observable<TaskChunk> \}/,
      );
    }
    expect(tasks.list()).toEqual([]);
    expect(events).toEqual([]);
  });

  it('fails a task whose work emits something other than a chunk, saying what to emit', () => {
    createTestScheduler().run(({ cold, flush }) => {
      const tasks = new TaskRuntime();
      const work = cold('-a-|', { a: 'plain text' }) as never;
      const { id } = tasks.start({ kind: 'demo', description: 'Strings', work });
      flush();
      expect(tasks.get(id)).toMatchObject({
        status: 'failed',
        isError: true,
        result:
          'Task work must emit { output: string } or a final { result: string, isError?: boolean }; it emitted a string ("plain text").',
      });
    });
  });
});
