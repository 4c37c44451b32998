import { Subscription, type Observer, type TeardownLogic } from 'rxjs';

/** RxJS's list of what a subscription finalizes (internal, stable across RxJS 7). */
interface Finalizers {
  _finalizers: unknown[] | null;
}

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

  /**
   * RxJS grows an empty finalizer list to room for 17 entries at the first `add`; a link
   * almost always holds one (its upstream's teardown), and a pending run holds several links
   * (the bench's heap-per-run rows): the list starts with room for that one.
   */
  override add(teardown: TeardownLogic): void {
    const self = this as unknown as Finalizers;
    if (self._finalizers === null && typeof teardown === 'function' && !this.closed) {
      self._finalizers = [teardown];
      return;
    }
    super.add(teardown);
    const list = self._finalizers;
    if (list !== null && list.length === 1) self._finalizers = [list[0]];
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
