import {
  concatMap,
  defer,
  filter,
  from,
  merge,
  Subject,
  tap,
  type Observable,
  type ObservableInput,
} from 'rxjs';
import { PipelineError } from '../errors/pipeline-error.js';
import { Turn } from '../turn/turn.js';
import type { LoopItem, LoopOperator } from '../turn/loop-item.js';

/**
 * Checks one item of a pipeline's stream: returns the turn when it is one, undefined for an
 * event, and throws `PipelineError` for anything else (a copied turn, `null`, a number).
 */
export function asTurn(item: unknown, where: string): Turn | undefined {
  if (typeof item !== 'object' || item === null) {
    throw new PipelineError(
      `${where} received ${String(item)}: a pipeline carries events and one Turn; ` +
        'make sure every operator passes items on unchanged (map only events, never the turn).',
    );
  }
  if ((item as { type?: unknown }).type !== 'turn') return undefined;
  if (!Turn.is(item)) {
    throw new PipelineError(
      `${where} received a copy of the turn, not the Turn itself: an operator rebuilt it ` +
        "(e.g. with a spread). Use the turn's with… methods (withStop, withNext, …) to change it.",
    );
  }
  return item;
}

/**
 * The work on one turn, failing loudly when it does not emit exactly one turn. Called by
 * `concatMap` when the turn arrives (a throw in `work` is an error of the run).
 */
function checkedWork(
  where: string,
  work: (turn: Turn) => ObservableInput<LoopItem>,
  turn: Turn,
): Observable<LoopItem> {
  let emitted = 0;
  return from(work(turn)).pipe(
    tap({
      next: (item) => {
        if (asTurn(item, where) && ++emitted > 1) {
          throw new PipelineError(
            `${where} emitted two turns for one: its work must end with exactly one turn.`,
          );
        }
      },
      complete: () => {
        if (emitted === 0) {
          throw new PipelineError(
            `${where} completed its work without passing the turn on: it must end with one turn.`,
          );
        }
      },
    }),
  );
}

/**
 * Builds a loop operator from the work to do on the turn: events pass through unchanged, and
 * when the turn arrives `work(turn)` runs; what it emits (its own events, then the next turn)
 * goes downstream. `work` is called when the turn arrives; a throw in it fails the run. The
 * operator fails with `PipelineError` when it receives a second turn or something that is
 * neither an event nor a turn, or when its work does not emit exactly one turn.
 * Unsubscribing cancels the work.
 *
 * @param name The operator's name, used in error messages.
 * @param work The work on the turn: an Observable of events ending with exactly one turn.
 * @return A loop operator.
 *
 * @example
 * const logSteps = (): LoopOperator =>
 *   turnOperator('logSteps', (turn) => { console.log('step', turn.step); return of(turn); });
 */
export function turnOperator(name: string, work: (turn: Turn) => ObservableInput<LoopItem>): LoopOperator {
  const where = `${name}()`;
  return (source) =>
    defer(() => {
      // The pipeline runs once per turn on a one-turn source: a second turn is a misuse.
      const turns = new Subject<Turn>();
      let seen = 0;
      const events$ = source.pipe(
        filter((item) => {
          const turn = asTurn(item, where);
          if (!turn) return true;
          if (++seen > 1) {
            throw new PipelineError(
              `${where} received a second turn: an operator before it passed the turn on twice. ` +
                'Each operator must emit exactly one turn for the one it receives.',
            );
          }
          turns.next(turn);
          return false;
        }),
        tap({ complete: () => turns.complete(), error: () => turns.complete() }),
      );
      // The work is subscribed first, so a turn that arrives synchronously finds it listening.
      return merge(turns.pipe(concatMap((turn) => checkedWork(where, work, turn))), events$);
    });
}
