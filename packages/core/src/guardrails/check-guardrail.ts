import { catchError, defaultIfEmpty, isObservable, map, of, take, type Observable } from 'rxjs';
import { isPromiseLike, toObservable } from '../util/to-observable.js';
import type { MaybeAsync } from './guardrail.js';

/** A check's first answer, or why it could not give one (a throw, an error). */
export type CheckAnswer<V> = { ok: true; verdict: V | undefined } | { ok: false; error: string };

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs one guardrail check: its first value (a plain value stays synchronous, so a run stays
 * in virtual time), an empty Observable passes, a throw or an error is `ok: false` (the
 * callers fail closed). Unsubscribing cancels an Observable check.
 *
 * @example
 * checkGuardrail(() => guardrail.check(input, ctx)).subscribe((answer) => console.log(answer.ok));
 */
export function checkGuardrail<V>(check: () => MaybeAsync<V | undefined | void>): Observable<CheckAnswer<V>> {
  let value: MaybeAsync<V | undefined | void>;
  try {
    value = check();
  } catch (error) {
    return of({ ok: false, error: errorText(error) });
  }
  if (!isPromiseLike(value) && !isObservable(value)) return of({ ok: true, verdict: value ?? undefined });
  return toObservable(value).pipe(
    take(1),
    map((verdict): CheckAnswer<V> => ({ ok: true, verdict: verdict ?? undefined })),
    defaultIfEmpty<CheckAnswer<V>, CheckAnswer<V>>({ ok: true, verdict: undefined }),
    catchError((error: unknown) => of<CheckAnswer<V>>({ ok: false, error: errorText(error) })),
  );
}

/**
 * A guardrail's JSON `info`, or undefined when it is not a plain object (events stay JSON).
 *
 * @example
 * const info = jsonInfo(verdict.info);
 */
export function jsonInfo(info: unknown): Record<string, unknown> | undefined {
  if (typeof info !== 'object' || info === null || Array.isArray(info)) return undefined;
  try {
    return JSON.parse(JSON.stringify(info)) as Record<string, unknown>;
  } catch {
    return { unserializable: true };
  }
}
