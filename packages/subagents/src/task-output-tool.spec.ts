import { runAgent } from '@rxagent/core';
import { createTestScheduler, marbleModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { filter, map } from 'rxjs';
import { taskOutputTool } from './task-output-tool.js';
import { TaskRuntime } from './task-runtime.js';
import type { TaskChunk } from './task-types.js';
import { at, resultText } from './test-helpers.test.js';

describe('taskOutputTool', () => {
  it('lists tasks, shows one with its output tail, waits for it to end, and names unknown ids', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const tasks = new TaskRuntime();
      tasks.start({
        kind: 'bash',
        description: 'npm test',
        work: cold<TaskChunk>('-a-------(r|)', { a: { output: 'PASS a.spec\n' }, r: { result: 'exit 0' } }),
      });
      const calls = [{}, { taskId: 'task-1' }, { taskId: 'task-1', wait: true }, { taskId: 'nope' }];
      const model = marbleModel(cold, [
        at(2, toolCallTurn({ name: 'task_output', args: calls[0] })),
        at(2, toolCallTurn({ name: 'task_output', args: calls[1] })),
        at(2, toolCallTurn({ name: 'task_output', args: calls[2] })),
        at(2, toolCallTurn({ name: 'task_output', args: calls[3] })),
        at(0, textTurn('Ok.')),
      ]);
      const run$ = runAgent({ model, tools: [taskOutputTool(tasks)], prompt: 'Check' });
      const results = run$.pipe(
        filter((e) => e.type === 'tool-end'),
        map((e) => (e.type === 'tool-end' ? resultText(e) : '')),
      );
      expectObservable(results).toBe('2ms l 1ms s 4ms w 1ms (n|)', {
        l: 'task-1 [running] bash: npm test',
        s: 'task-1 [running] bash: npm test\n\nOutput:\nPASS a.spec\n\n\nStill running: its result will arrive as a message.',
        w: 'task-1 [completed] bash: npm test\n\nOutput:\nPASS a.spec\n\n\nResult:\nexit 0',
        n: 'No task "nope". Known tasks: task-1.',
      });
    });
  });

  it('cancels a task and shows only the tail asked for', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const tasks = new TaskRuntime();
      tasks.start({
        kind: 'bash',
        description: 'serve',
        work: cold<TaskChunk>('(ab)-----|', { a: { output: 'line one\n' }, b: { output: 'line two\n' } }),
      });
      const model = marbleModel(cold, [
        at(1, toolCallTurn({ name: 'task_output', args: { taskId: 'task-1', tailChars: 9 } })),
        at(1, toolCallTurn({ name: 'task_output', args: { taskId: 'task-1', cancel: true } })),
        at(0, textTurn('Ok.')),
      ]);
      const results = runAgent({ model, tools: [taskOutputTool(tasks)], prompt: 'Check' }).pipe(
        filter((e) => e.type === 'tool-end'),
        map((e) => (e.type === 'tool-end' ? resultText(e) : '')),
      );
      expectObservable(results).toBe('1ms a (c|)', {
        a: 'task-1 [running] bash: serve\n\nOutput (last 9 of 18 characters):\nline two\n\n\nStill running: its result will arrive as a message.',
        c: 'Cancelled task-1.',
      });
    });
  });
});
