import { defer, from, isObservable, map, of, type Observable, type ObservableInput } from 'rxjs';
import type { ContextManager, ContextManagerContext, ContextProjection } from '../context/context-manager.js';
import type { LoopOperator, TurnContext } from '../loop/loop-event.js';
import { turnOperator } from './turn-operator.js';

function isProjection(value: unknown): value is ContextProjection {
  return (
    typeof value === 'object' &&
    value !== null &&
    !isObservable(value) &&
    Array.isArray((value as ContextProjection).messages)
  );
}

function projection$(
  value: ContextProjection | ObservableInput<ContextProjection>,
): Observable<ContextProjection> {
  return isProjection(value) ? of(value) : from(value);
}

function managerContext(turn: TurnContext): ContextManagerContext {
  const run = turn.run;
  return { step: turn.step, usage: run.usage, signal: run.signal, scheduler: run.scheduler };
}

/**
 * Projects the context through a `ContextManager` before each model call: the manager may
 * summarize or trim, and the call sends its projection (the transcript itself is not
 * rewritten). A `compaction` event reports what it did. When the provider answers with
 * `ContextOverflowError`, `llmStep` asks the manager once to `recoverOverflow` and retries.
 * A manager that throws is reported as a `warning` and the call goes on uncompacted.
 *
 * @param manager The context manager.
 * @return A loop operator; put it before `llmStep`.
 *
 * @example
 * runAgent({ model, prompt, pipeline: (t$) => t$.pipe(compactContext(myManager), llmStep(), executeTools()) });
 */
export function compactContext(manager: ContextManager): LoopOperator {
  return turnOperator((turn, io) => {
    const input = turn.context ?? turn.run.modelMessages;
    if (manager.recoverOverflow) {
      const recover = manager.recoverOverflow.bind(manager);
      turn.recoverOverflow = (error) =>
        defer(() =>
          projection$(recover(turn.context ?? turn.run.modelMessages, error, managerContext(turn))),
        ).pipe(
          map((p) => {
            if (p.compaction) io.emit({ type: 'compaction', ...p.compaction });
            turn.context = p.messages;
            return p.messages;
          }),
        );
    }
    const sub = defer(() => projection$(manager.project(input, managerContext(turn)))).subscribe({
      next(p) {
        if (p.messages !== input) turn.context = p.messages;
        if (p.compaction) io.emit({ type: 'compaction', ...p.compaction });
      },
      error(error: unknown) {
        io.emit({
          type: 'warning',
          message: `Context manager failed, sending the context uncompacted: ${error instanceof Error ? error.message : String(error)}`,
        });
        io.done();
      },
      complete: () => io.done(),
    });
    return sub;
  });
}
