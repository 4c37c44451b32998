import { from, isObservable, of, type Observable, type ObservableInput } from 'rxjs';
import type { ContextProgress, ContextProjection } from './context-manager.js';

/**
 * @internal True for a manager's projection (not one of the events of its work).
 *
 * @example
 * if (isProjection(item)) last = item;
 */
export function isProjection(value: unknown): value is ContextProjection {
  return (
    typeof value === 'object' &&
    value !== null &&
    !isObservable(value) &&
    !('type' in value) &&
    Array.isArray((value as ContextProjection).messages)
  );
}

/**
 * @internal A manager's answer as a stream: its events as they happen, then its projection (last).
 *
 * @example
 * progress$(manager.project(messages, context)).subscribe(console.log);
 */
export function progress$(
  value: ContextProjection | ObservableInput<ContextProgress>,
): Observable<ContextProgress> {
  return isProjection(value) ? of(value) : from(value);
}
