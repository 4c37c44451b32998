import type { Pool } from 'pg';
import { isObservable, lastValueFrom, type Observable } from 'rxjs';
import { whileUnavailable } from './db-retry.js';
import type { RunControl } from './run-control.js';
import { SCHEMA } from './schema.js';

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
 * so work done in parallel finds its own record. The first answer stored wins.
 */
export async function recorded<T>(
  control: RunControl,
  pool: Pool,
  key: string,
  work: () => Promise<T>,
): Promise<T> {
  const query = <R extends object>(sql: string, values: unknown[]) =>
    whileUnavailable(control, () => pool.query<R>(sql, values));
  const found = await query<{ value: { v: T } }>(
    `SELECT value FROM ${SCHEMA}.records WHERE run_id = $1 AND key = $2`,
    [control.runId, key],
  );
  const record = found.rows[0];
  if (record) return record.value.v;
  const value = await work();
  const stored = await query<{ value: { v: T } }>(
    `INSERT INTO ${SCHEMA}.records (run_id, key, value) VALUES ($1, $2, $3)
     ON CONFLICT (run_id, key) DO UPDATE SET value = ${SCHEMA}.records.value
     RETURNING value`,
    [control.runId, key, JSON.stringify({ v: value ?? null })],
  );
  return stored.rows[0]?.value.v ?? value;
}
