import { Subscription, type Observer } from 'rxjs';

/**
 * What a chained observer does with each notification.
 *
 * @example
 * const handlers: ChainHandlers<number> = { next: (n) => out.next(n * 2), error: (e) => out.error(e), complete: () => out.complete() };
 */
export interface ChainHandlers<T> {
  next(value: T): void;
  error(error: unknown): void;
  complete(): void;
}

/**
 * An observer that is also the subscription of what it observes, chained to a downstream
 * subscription (the public equivalent of RxJS's internal operator subscriber). A class, not an
 * object literal: it is made once per operator per turn, and a literal with its own methods
 * costs several times more (the `tool-loop` rows of `pnpm bench` measure it).
 */
class ChainLink<T> extends Subscription implements Observer<T> {
  private stopped = false;

  constructor(private readonly handlers: ChainHandlers<T>) {
    super();
  }

  next(value: T): void {
    if (!this.stopped && !this.closed) this.handlers.next(value);
  }

  error(error: unknown): void {
    if (this.stopped || this.closed) return;
    this.stopped = true;
    this.handlers.error(error);
    this.unsubscribe();
  }

  complete(): void {
    if (this.stopped || this.closed) return;
    this.stopped = true;
    this.handlers.complete();
    this.unsubscribe();
  }
}

/**
 * An observer to subscribe an upstream with, chained to `downstream`: unsubscribing
 * `downstream` closes it at once — also synchronously, while the upstream is still emitting
 * inside its `subscribe` — so the upstream sees `closed` and starts nothing more (RxJS's own
 * operators chain their subscribers the same way; its helper for it is internal). Like RxJS's
 * subscribers it ignores whatever comes after `error` or `complete` or once closed, and after
 * `error` or `complete` it unsubscribes the upstream.
 *
 * (Used by the few hand-written pieces on the per-step path — `turnOperator`, the turn loop,
 * `runAgent`, the tool batch — each measured by `pnpm bench`'s tool-loop and subscriptions
 * rows and held to every Rx law by the laws suite. Everything else is built from RxJS operators.)
 *
 * @example
 * new Observable<number>((subscriber) => {
 *   source.subscribe(chainedObserver(subscriber, { next: (n) => subscriber.next(n * 2), error: (e) => subscriber.error(e), complete: () => subscriber.complete() }));
 * });
 */
export function chainedObserver<T>(
  downstream: Subscription,
  handlers: ChainHandlers<T>,
): Observer<T> & Subscription {
  const link = new ChainLink(handlers);
  downstream.add(link);
  return link;
}
