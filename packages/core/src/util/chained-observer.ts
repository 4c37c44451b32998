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
 * An observer to subscribe an upstream with, chained to `downstream`: unsubscribing
 * `downstream` closes it at once — also synchronously, while the upstream is still emitting
 * inside its `subscribe` — so the upstream sees `closed` and starts nothing more (RxJS's own
 * operators chain their subscribers the same way; its helper for it is internal). Like RxJS's
 * subscribers it ignores whatever comes after `error` or `complete` or once closed, and after
 * `error` or `complete` it unsubscribes the upstream.
 *
 * (Used by the few hand-written pieces of the loop: `turnOperator`, the turn loop and
 * `runAgent`. They are hand-written because they run per step: see `pnpm bench`'s tool-loop and
 * subscriptions rows. Everything else is built from RxJS operators.)
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
  const link = new Subscription();
  let stopped = false;
  const observer = Object.assign(link, {
    next(value: T): void {
      if (!stopped && !link.closed) handlers.next(value);
    },
    error(error: unknown): void {
      if (stopped || link.closed) return;
      stopped = true;
      handlers.error(error);
      link.unsubscribe();
    },
    complete(): void {
      if (stopped || link.closed) return;
      stopped = true;
      handlers.complete();
      link.unsubscribe();
    },
  });
  downstream.add(link);
  return observer;
}
