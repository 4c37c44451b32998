import { Subscription, UnsubscriptionError, type Observer, type TeardownLogic } from 'rxjs';

/** What RxJS keeps of a subscription's finalizers and parents (internal, stable across RxJS 7). */
interface Internals {
  _finalizers: unknown[] | null;
  _hasParent(parent: Subscription): boolean;
  _addParent(parent: Subscription): void;
  _removeParent(parent: Subscription): void;
}

const internals = (subscription: Subscription) => subscription as unknown as Internals;

/** The errors a finalizer's throw amounts to (RxJS's own list when it gathered several). */
const failures = (error: unknown): unknown[] =>
  error instanceof UnsubscriptionError ? [...(error.errors as unknown[])] : [error];

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
   * A link almost always holds one teardown (its upstream's), and a pending run holds several
   * links (the bench's heap-per-run rows): that one is kept in a field, not in RxJS's list (an
   * array per link). A second one moves it to the head of the list, so the order holds.
   */
  private only: Exclude<TeardownLogic, void> | null = null;

  override add(teardown: TeardownLogic): void {
    if (!teardown || teardown === this || this.closed) return super.add(teardown);
    if (teardown instanceof Subscription) {
      if (teardown.closed || internals(teardown)._hasParent(this)) return;
      internals(teardown)._addParent(this);
    }
    const self = internals(this);
    if (self._finalizers !== null) self._finalizers.push(teardown);
    else if (this.only === null) this.only = teardown;
    else {
      self._finalizers = [this.only, teardown];
      this.only = null;
    }
  }

  override remove(teardown: Exclude<TeardownLogic, void>): void {
    if (this.only === null || this.only !== teardown) return super.remove(teardown);
    this.only = null;
    if (teardown instanceof Subscription) internals(teardown)._removeParent(this);
  }

  override unsubscribe(): void {
    if (this.closed) return;
    const only = this.only;
    this.only = null;
    let errors: unknown[] | undefined;
    try {
      super.unsubscribe();
    } catch (error) {
      errors = failures(error);
    }
    if (only !== null) {
      try {
        if (typeof only === 'function') only();
        else only.unsubscribe();
      } catch (error) {
        errors = [...(errors ?? []), ...failures(error)];
      }
    }
    if (errors) throw new UnsubscriptionError(errors);
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
  // RxJS starts a subscriber's finalizer list with room for 17; most hold a teardown or two.
  const list = internals(downstream)._finalizers;
  if (list !== null && list.length <= 2) internals(downstream)._finalizers = list.slice();
  return link;
}
