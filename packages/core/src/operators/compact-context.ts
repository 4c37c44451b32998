import {
  catchError,
  concatMap,
  defer,
  from,
  isObservable,
  last,
  map,
  of,
  type Observable,
  type ObservableInput,
} from 'rxjs';
import type { ContextManager, ContextManagerContext, ContextProjection } from '../context/context-manager.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { Turn, TurnContextUpdate } from '../loop/turn.js';
import type { LoopItem, LoopOperator } from '../loop/loop-item.js';
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
  return isProjection(value) ? of(value) : from(value).pipe(last());
}

function managerContext(turn: Turn): ContextManagerContext {
  const { run } = turn;
  return { step: turn.step, usage: turn.usage, signal: run.signal, scheduler: run.scheduler };
}

function compactionEvents(p: ContextProjection): AgentEvent[] {
  return p.compaction ? [{ type: 'compaction', ...p.compaction }] : [];
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
  return turnOperator('compactContext', (turn) => {
    const input = turn.context ?? turn.modelMessages;
    const recover = manager.recoverOverflow?.bind(manager);
    const recoverOverflow = recover
      ? (error: unknown): Observable<TurnContextUpdate> =>
          defer(() => projection$(recover(input, error, managerContext(turn)))).pipe(
            map((p) => ({ messages: p.messages, events: compactionEvents(p) })),
          )
      : undefined;
    return defer(() => projection$(manager.project(input, managerContext(turn)))).pipe(
      map((p): LoopItem[] => [
        ...compactionEvents(p),
        p.messages !== input || recoverOverflow ? turn.withContext(p.messages, recoverOverflow) : turn,
      ]),
      catchError((error: unknown) =>
        of<LoopItem[]>([
          {
            type: 'warning',
            message: `Context manager failed, sending the context uncompacted: ${error instanceof Error ? error.message : String(error)}`,
          },
          recoverOverflow ? turn.withContext(input, recoverOverflow) : turn,
        ]),
      ),
      concatMap((items) => from(items)),
    );
  });
}
