import { from, isObservable, of, type Observable } from 'rxjs';

/**
 * A value, a Promise (or thenable) or an Observable as an Observable. Plain values stay
 * synchronous, so hooks that return plain values keep a run in virtual time.
 *
 * @example
 * toObservable(hook(args)).subscribe((value) => …);
 */
export function toObservable<T>(value: T | PromiseLike<T> | Observable<T>): Observable<T> {
  if (isObservable(value)) return value;
  if (isPromiseLike(value)) return from(value);
  return of(value);
}

/** True for a Promise or any thenable. */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
