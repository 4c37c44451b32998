import { Observable, type Subscriber, type TeardownLogic } from 'rxjs';

/**
 * An Observable of state that also has the current state synchronously in `.value`
 * (like redux-observable's `StateObservable`).
 *
 * @example
 * const { state$ } = withState(run$);
 * console.log(state$.value.phase);
 */
export class StateObservable<S> extends Observable<S> {
  constructor(
    subscribe: (this: Observable<S>, subscriber: Subscriber<S>) => TeardownLogic,
    private readonly read: () => S,
  ) {
    super(subscribe);
  }

  /** The current state. */
  get value(): S {
    return this.read();
  }
}
