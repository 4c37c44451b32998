import { Observable, Subscription, type Observer, type Subscriber, type TeardownLogic } from 'rxjs';
import type {
  LoopEvent,
  LoopOperator,
  RunContext,
  TurnContext,
  TurnContextItem,
} from '../loop/loop-event.js';

/**
 * How a turn handler talks back: emit events, then `done()` (passes the turn on) or `fail()`.
 *
 * @example
 * turnOperator((turn, io) => {
 *   io.emit({ type: 'warning', message: `step ${turn.step}` });
 *   io.done();
 * });
 */
export interface TurnIO {
  emit(event: LoopEvent): void;
  done(): void;
  fail(error: unknown): void;
}

type TurnHandler = (turn: TurnContext, io: TurnIO) => TeardownLogic;
type RunHandler = (run: RunContext, emit: (event: LoopEvent) => void) => TeardownLogic;

/** One turn in flight. Methods on the prototype: a synchronous turn allocates only this object. */
class TurnHandle implements TurnIO {
  settled = false;
  work?: Subscription;

  constructor(
    private readonly owner: TurnOperatorSubscriber,
    private readonly item: TurnContextItem,
  ) {}

  emit(event: LoopEvent): void {
    this.owner.downstream.next(event);
  }

  done(): void {
    if (this.settled) return;
    this.settle();
    this.owner.downstream.next(this.item);
    this.owner.completeIfIdle();
  }

  fail(error: unknown): void {
    if (this.settled) return;
    this.settle();
    this.owner.downstream.error(error);
  }

  private settle(): void {
    this.settled = true;
    if (this.work) this.owner.forget(this);
  }
}

/**
 * The operator's subscription to its source. It is an Observer and a Subscription at once, so
 * RxJS takes it as the subscriber as it is (no wrapping, no bound functions): a pending run
 * holds a chain of these, so their size is the size of 10,000 pending runs.
 */
class TurnOperatorSubscriber extends Subscription implements Observer<LoopEvent> {
  private turns?: Set<TurnHandle>;
  private sourceDone = false;

  constructor(
    readonly downstream: Subscriber<LoopEvent>,
    private readonly handle: TurnHandler,
    private readonly onRun: RunHandler | undefined,
  ) {
    super();
  }

  next(item: LoopEvent): void {
    if (item.type !== 'turn-context') {
      if (item.type === 'run-context' && this.onRun) {
        const downstream = this.downstream;
        downstream.add(this.onRun(item.run, (event) => downstream.next(event)));
      }
      this.downstream.next(item);
      return;
    }
    const turn = new TurnHandle(this, item);
    let teardown: TeardownLogic;
    try {
      teardown = this.handle(item.turn, turn);
    } catch (error) {
      return turn.fail(error);
    }
    if (turn.settled) return; // finished synchronously: nothing to keep
    turn.work = new Subscription();
    turn.work.add(teardown);
    (this.turns ??= new Set()).add(turn);
  }

  error(error: unknown): void {
    this.downstream.error(error);
  }

  complete(): void {
    this.sourceDone = true;
    this.completeIfIdle();
  }

  forget(turn: TurnHandle): void {
    this.turns?.delete(turn);
  }

  completeIfIdle(): void {
    if (this.sourceDone && (this.turns?.size ?? 0) === 0) this.downstream.complete();
  }

  override unsubscribe(): void {
    super.unsubscribe();
    for (const turn of this.turns ?? []) turn.work?.unsubscribe();
    this.turns?.clear();
  }
}

/**
 * Builds a loop operator that passes every event through and handles each turn with
 * `handle`, which may work asynchronously and must end with `io.done()` or `io.fail()`.
 * The teardown it returns runs only if the run is unsubscribed while the turn is in flight.
 * Upstream completion waits for turns in flight.
 *
 * @example
 * const countTurns = (): LoopOperator => turnOperator((turn, io) => { console.log(turn.step); io.done(); });
 */
export function turnOperator(handle: TurnHandler, onRun?: RunHandler): LoopOperator {
  return (source) =>
    new Observable<LoopEvent>((subscriber) =>
      source.subscribe(new TurnOperatorSubscriber(subscriber, handle, onRun)),
    );
}
