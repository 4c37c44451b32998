import { from, Observable, type ObservableInput, type Subscriber } from 'rxjs';
import { PipelineError } from '../errors/pipeline-error.js';
import { Turn } from '../turn/turn.js';
import type { LoopItem, LoopOperator } from '../turn/loop-item.js';
import { chainedObserver, type ChainHandlers } from '../util/chained-observer.js';

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
      source.subscribe(chainedObserver<LoopItem>(subscriber, new OperatorPass(subscriber, where, work)));
    });
}

// One operator's pass over one turn, as objects rather than closures: a pass is made per operator
// per turn, and a pending run holds one per operator (the bench's heap-per-run rows).

/** What the operator does with its source's items: pass events on, run the work on the turn. */
class OperatorPass implements ChainHandlers<LoopItem> {
  seen = false;
  sourceDone = false;
  working = false;

  constructor(
    readonly subscriber: Subscriber<LoopItem>,
    readonly where: string,
    private readonly work: (turn: Turn) => ObservableInput<LoopItem>,
  ) {}

  next(item: LoopItem): void {
    const subscriber = this.subscriber;
    let turn: Turn | undefined;
    try {
      turn = asTurn(item, this.where);
      if (turn && this.seen) {
        throw new PipelineError(
          `${this.where} received a second turn: an operator before it passed the turn on twice. ` +
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
    this.seen = true;
    // Unsubscribed synchronously by a downstream `take(n)`: no work starts.
    if (subscriber.closed) return;
    let output: Observable<LoopItem>;
    try {
      output = from(this.work(turn));
    } catch (error) {
      subscriber.error(error);
      return;
    }
    this.working = true;
    output.subscribe(chainedObserver<LoopItem>(subscriber, new WorkOutput(this)));
  }

  error(error: unknown): void {
    this.subscriber.error(error);
  }

  complete(): void {
    this.sourceDone = true;
    if (!this.working) this.subscriber.complete();
  }
}

/** What the operator does with its work's items: exactly one turn, then done. */
class WorkOutput implements ChainHandlers<LoopItem> {
  private emitted = 0;

  constructor(private readonly pass: OperatorPass) {}

  next(item: LoopItem): void {
    const { subscriber, where } = this.pass;
    try {
      if (asTurn(item, where) && ++this.emitted > 1) {
        throw new PipelineError(
          `${where} emitted two turns for one: its work must end with exactly one turn.`,
        );
      }
    } catch (error) {
      subscriber.error(error);
      return;
    }
    subscriber.next(item);
  }

  error(error: unknown): void {
    this.pass.subscriber.error(error);
  }

  complete(): void {
    const pass = this.pass;
    pass.working = false;
    if (this.emitted === 0) {
      pass.subscriber.error(
        new PipelineError(
          `${pass.where} completed its work without passing the turn on: it must end with one turn.`,
        ),
      );
    } else if (pass.sourceDone) pass.subscriber.complete();
  }
}
