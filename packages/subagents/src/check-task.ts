import { isObservable } from 'rxjs';
import { SubagentConfigError } from './subagent-errors.js';
import type { TaskChunk, TaskSpec } from './task-types.js';

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'function' ? 'a function' : `${typeof value} ${JSON.stringify(value) ?? ''}`.trim();
}

/**
 * Checks what `TaskRuntime.start` was given before anything is registered: a bad call throws a
 * `SubagentConfigError` saying what to pass, and leaves no task behind.
 *
 * @example
 * checkTaskSpec({ kind: 'demo', description: 'Count', work: of({ result: 'done' }) });
 */
export function checkTaskSpec(spec: unknown): asserts spec is TaskSpec {
  const s = (typeof spec === 'object' && spec !== null ? spec : {}) as Partial<
    Record<keyof TaskSpec, unknown>
  >;
  const problem =
    typeof spec !== 'object' || spec === null
      ? `received ${describeValue(spec)}`
      : typeof s.kind !== 'string'
        ? `kind is ${describeValue(s.kind)}`
        : typeof s.description !== 'string'
          ? `description is ${describeValue(s.description)}`
          : !isObservable(s.work)
            ? `work is ${describeValue(s.work)}, not an Observable (wrap a Promise with from(promise))`
            : undefined;
  if (problem) {
    throw new SubagentConfigError(
      `TaskRuntime.start needs { kind: string, description: string, work: Observable<TaskChunk> }: ${problem}.`,
    );
  }
}

/**
 * A chunk of task work, checked: `{ output: string }` or `{ result: string, … }`. Anything else
 * throws an error (the task fails with it) saying what to emit.
 *
 * @example
 * checkTaskChunk({ output: 'line\n' }); // returns it
 */
export function checkTaskChunk(chunk: unknown): TaskChunk {
  if (typeof chunk === 'object' && chunk !== null) {
    const c = chunk as { output?: unknown; result?: unknown };
    if (typeof c.output === 'string' || typeof c.result === 'string') return chunk as TaskChunk;
  }
  const shown =
    typeof chunk === 'string' ? `a string (${JSON.stringify(chunk.slice(0, 80))})` : describeValue(chunk);
  throw new SubagentConfigError(
    `Task work must emit { output: string } or a final { result: string, isError?: boolean }; it emitted ${shown}.`,
  );
}
