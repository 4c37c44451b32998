import type { Subscriber, TeardownLogic } from 'rxjs';

const NONE: readonly never[] = Object.freeze([]);

/**
 * @internal Where a run's state lives for `withState` and `Agent`: a `BehaviorSubject` cut to
 * what they use. It is on the path of every event (each streamed delta is one state), and a
 * subject's `next` pays for RxJS's error context and an iterator per call; this one is a loop.
 * Like a `BehaviorSubject`: a subscriber gets the current value first; a value given while
 * values are delivered goes to every subscriber at once (the delivery in progress goes on with
 * the list it started with); after `complete`, a subscriber gets only the completion.
 *
 * @example
 * const cell = new StateCell(initialAgentState());
 * cell.subscribe(subscriber);
 * cell.next(reduceAgentState(cell.value, event));
 */
export class StateCell<S> {
  /** Replaced, never changed, so a delivery in progress keeps the list it started with. */
  private subscribers: readonly Subscriber<S>[] = NONE;
  private done = false;

  constructor(private current: S) {}

  get value(): S {
    return this.current;
  }

  /** True once completed. */
  get isStopped(): boolean {
    return this.done;
  }

  next(value: S): void {
    // Kept even once completed, as a `BehaviorSubject` does: a fold settling after its run's
    // last subscriber left still writes the terminal state `.value` reads.
    this.current = value;
    if (this.done) return;
    const subscribers = this.subscribers;
    for (let i = 0; i < subscribers.length; i++) (subscribers[i] as Subscriber<S>).next(value);
  }

  complete(): void {
    if (this.done) return;
    this.done = true;
    const subscribers = this.subscribers;
    this.subscribers = NONE;
    for (const subscriber of subscribers) subscriber.complete();
  }

  subscribe(subscriber: Subscriber<S>): TeardownLogic {
    if (this.done) {
      subscriber.complete();
      return undefined;
    }
    this.subscribers = this.subscribers.concat([subscriber]); // made to size: a pending run holds it
    subscriber.next(this.current);
    return () => this.leave(subscriber);
  }

  private leave(subscriber: Subscriber<S>): void {
    const at = this.subscribers.indexOf(subscriber);
    if (at < 0) return;
    this.subscribers = this.subscribers.filter((_, i) => i !== at);
  }
}
