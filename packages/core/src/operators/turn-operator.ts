import { from, Observable, type ObservableInput } from 'rxjs';
import { PipelineError } from '../errors/pipeline-error.js';
import { Turn } from '../turn/turn.js';
import type { LoopItem, LoopOperator } from '../turn/loop-item.js';
import { chainedObserver } from '../util/chained-observer.js';

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
 * Builds a loop operator from the work to do on the turn: events pass through unchanged, and
 * when the turn arrives `work(turn)` runs; what it emits (its own events, then the next turn)
 * goes downstream. `work` is called when the turn arrives; a throw in it fails the run. The
 * operator fails with `PipelineError` when it receives a second turn or something that is
 * neither an event nor a turn, or when its work does not emit exactly one turn. It completes
 * when its source has completed and its work is done. Unsubscribing cancels the work.
 *
 * (Written as one `new Observable` rather than a `merge` of a `Subject` and `concatMap`: the
 * loop applies it once per operator per turn, and this costs two subscriptions a turn instead
 * of nine; the `tool-loop` and `subscriptions` rows of `pnpm bench` measure it.)
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
    new Observable<LoopItem>((subscriber) => {
      let seen = false;
      let sourceDone = false;
      let working = false;

      const runWork = (turn: Turn): void => {
        let emitted = 0;
        let output: Observable<LoopItem>;
        try {
          output = from(work(turn));
        } catch (error) {
          subscriber.error(error);
          return;
        }
        working = true;
        output.subscribe(
          chainedObserver<LoopItem>(subscriber, {
            next: (item) => {
              try {
                if (asTurn(item, where) && ++emitted > 1) {
                  throw new PipelineError(
                    `${where} emitted two turns for one: its work must end with exactly one turn.`,
                  );
                }
              } catch (error) {
                subscriber.error(error);
                return;
              }
              subscriber.next(item);
            },
            error: (error: unknown) => subscriber.error(error),
            complete: () => {
              working = false;
              if (emitted === 0) {
                subscriber.error(
                  new PipelineError(
                    `${where} completed its work without passing the turn on: it must end with one turn.`,
                  ),
                );
              } else if (sourceDone) subscriber.complete();
            },
          }),
        );
      };

      source.subscribe(
        chainedObserver<LoopItem>(subscriber, {
          next: (item) => {
            let turn: Turn | undefined;
            try {
              turn = asTurn(item, where);
              if (turn && seen) {
                throw new PipelineError(
                  `${where} received a second turn: an operator before it passed the turn on twice. ` +
                    'Each operator must emit exactly one turn for the one it receives.',
                );
              }
            } catch (error) {
              subscriber.error(error);
              return;
            }
            if (!turn) {
              subscriber.next(item);
              return;
            }
            seen = true;
            // Unsubscribed synchronously by a downstream `take(n)`: no work starts.
            if (!subscriber.closed) runWork(turn);
          },
          error: (error: unknown) => subscriber.error(error),
          complete: () => {
            sourceDone = true;
            if (!working) subscriber.complete();
          },
        }),
      );
    });
}
