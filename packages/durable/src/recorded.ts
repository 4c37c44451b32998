import { isObservable, lastValueFrom, type Observable } from 'rxjs';
import type { RunRecords } from './run-records.js';

/** A value, a promise of it, or an Observable whose last value it is (a guardrail's answer). */
export type Eventually<T> = T | PromiseLike<T> | Observable<T>;

/** The value of `input`, however it comes. */
export async function settled<T>(input: Eventually<T>): Promise<T> {
  return isObservable(input) ? lastValueFrom(input) : await input;
}

/**
 * A step of a durable run that is not a DBOS step: its answer is stored in `records` under
 * (run id, `key`), and a replay that finds it returns it without doing the work again. `key`
 * names the work and its place in the run (a guardrail, the call or message count it checked),
 * so work done in parallel finds its own record. The first answer stored wins. The records are
 * those the execution read when it started and those it stored since (`RunRecords`).
 */
export async function recorded<T>(records: RunRecords, key: string, work: () => Promise<T>): Promise<T> {
  const found = records.value<T>(key);
  if (found) return found.v;
  return records.store(key, await work());
}
