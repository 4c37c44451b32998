import {
  catchError,
  concat,
  defer,
  EMPTY,
  from,
  map,
  mergeMap,
  of,
  reduce,
  throwError,
  type Observable,
} from 'rxjs';
import {
  CONTEXT_MANAGER_STATE,
  type ContextManager,
  type ContextManagerContext,
  type ContextProgress,
  type ContextProjection,
} from '../context/context-manager.js';
import { isProjection, progress$ } from '../context/context-progress.js';
import { ContextCompactionError } from '../errors/context-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { Turn } from '../turn/turn.js';
import type { TurnContextUpdate } from '../turn/turn-fields.js';
import type { LoopItem, LoopOperator } from '../turn/loop-item.js';
import { turnOperator } from './turn-operator.js';

function managerContext(turn: Turn): ContextManagerContext {
  const { run } = turn;
  return {
    step: turn.step,
    usage: turn.usage,
    signal: run.signal,
    scheduler: run.scheduler,
    system: run.settings.request.system,
    tools: run.toolSpecs,
    state: turn.operatorState(CONTEXT_MANAGER_STATE),
  };
}

function projectionEvents(p: ContextProjection): AgentEvent[] {
  const events: AgentEvent[] = [];
  if (p.compaction) events.push({ type: 'compaction', ...p.compaction });
  if (p.usage) events.push({ type: 'context-usage', usage: p.usage });
  return events;
}

/** The turn keeping the manager's new state (plain JSON, so a snapshot carries it), if it gave one. */
function withState(turn: Turn, p: ContextProjection): Turn {
  return p.state === undefined ? turn : turn.withOperatorState(CONTEXT_MANAGER_STATE, p.state);
}

/** The manager's events and last projection, collected into the update of a retried call. */
function collectUpdate(source$: Observable<ContextProgress>): Observable<TurnContextUpdate> {
  return source$.pipe(
    reduce(
      (acc: { events: AgentEvent[]; projection?: ContextProjection }, p) => {
        if (isProjection(p)) acc.projection = p;
        else acc.events.push(p);
        return acc;
      },
      { events: [] },
    ),
    map(({ events, projection }): TurnContextUpdate => {
      if (!projection) throw new Error('The context manager completed without a projection.');
      return {
        messages: projection.messages,
        events: [...events, ...projectionEvents(projection)],
        usage: projection.compaction?.usage,
        ...(projection.state !== undefined ? { state: projection.state } : {}),
      };
    }),
  );
}

/** The manager's events, then `done(projection)`'s items, as one stream subscribed once. */
function run(
  source$: Observable<ContextProgress>,
  done: (p: ContextProjection) => Observable<LoopItem>,
): Observable<LoopItem> {
  return defer(() => {
    let projection: ContextProjection | undefined;
    return concat(
      source$.pipe(
        mergeMap((p): Observable<LoopItem> => {
          if (isProjection(p)) {
            projection = p;
            return EMPTY;
          }
          return of(p);
        }),
      ),
      defer(() => {
        if (!projection) throw new Error('The context manager completed without a projection.');
        return done(projection);
      }),
    );
  });
}

/**
 * Projects the context through a `ContextManager` before each model call: the manager may
 * summarize or trim, and the call sends its projection (the transcript itself is not
 * rewritten). The manager's own events (a summary call streaming `summary-start` /
 * `summary-update`) pass through as they happen; a `compaction` event reports what it did
 * (its summary call's usage is added to the run's), and a `context-usage` event how full the
 * context is. When the provider answers with `ContextOverflowError`, `llmStep` asks the
 * manager once to `recoverOverflow` and retries. A manager that throws is reported as a
 * `warning` and the call goes on uncompacted — except a `ContextCompactionError`, which fails
 * the run (the transcript is kept as it was). The manager's per-run state (`ContextProjection.state`)
 * is kept on the turn as operator state `CONTEXT_MANAGER_STATE` and given back as `context.state`
 * on its next call, so a run resumed or forked from a snapshot projects exactly as the original.
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
    // The recovery starts from the manager's state after this turn's projection.
    const recoverFrom = (at: Turn) =>
      recover
        ? (error: unknown): Observable<TurnContextUpdate> =>
            collectUpdate(defer(() => progress$(recover(input, error, managerContext(at)))))
        : undefined;
    return run(
      defer(() => progress$(manager.project(input, managerContext(turn)))),
      (p): Observable<LoopItem> => {
        const withUsage = withState(p.compaction?.usage ? turn.withUsage(p.compaction.usage) : turn, p);
        const recoverOverflow = recoverFrom(withUsage);
        const next =
          p.messages !== input || recoverOverflow
            ? withUsage.withContext(p.messages, recoverOverflow)
            : withUsage;
        return from<LoopItem[]>([...projectionEvents(p), next]);
      },
    ).pipe(
      catchError((error: unknown) =>
        ContextCompactionError.isInstance(error)
          ? throwError(() => error)
          : from<LoopItem[]>([
              {
                type: 'warning',
                message: `Context manager failed, sending the context uncompacted: ${error instanceof Error ? error.message : String(error)}`,
              },
              recover ? turn.withContext(input, recoverFrom(turn)) : turn,
            ]),
      ),
    );
  });
}
