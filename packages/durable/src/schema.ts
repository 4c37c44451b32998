import type { Pool } from 'pg';

/** The schema of rxagent's own tables, beside DBOS's `dbos` schema in the same database. */
export const SCHEMA = 'rxagent_durable';

/** Channel notified with a run id whenever that run's event log grows. */
export const EVENTS_CHANNEL = 'rxagent_durable_events';

/**
 * `events`: each run's event log, in order (`seq`), deduplicated by `key` so that a run replayed
 * after a crash does not log twice what it logged before. `workers`: each worker's id and what
 * it registered; a worker holds an advisory lock on its id while it lives.
 */
const DDL = `
CREATE SCHEMA IF NOT EXISTS ${SCHEMA};
CREATE TABLE IF NOT EXISTS ${SCHEMA}.events (
  seq bigserial PRIMARY KEY,
  run_id text NOT NULL,
  key text,
  body jsonb NOT NULL,
  UNIQUE (run_id, key)
);
CREATE INDEX IF NOT EXISTS events_run_seq ON ${SCHEMA}.events (run_id, seq);
CREATE TABLE IF NOT EXISTS ${SCHEMA}.workers (
  worker_id text PRIMARY KEY,
  models text[] NOT NULL,
  tools text[] NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now()
);
`;

/** Creates the tables if they are missing (one transaction-level lock, so workers can race). */
export async function ensureSchema(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(`SELECT pg_advisory_xact_lock(hashtext('${SCHEMA}.schema'))`);
    await client.query(DDL);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The advisory-lock key of a worker's liveness lock. */
export function workerLockSql(param: string): string {
  return `hashtextextended('${SCHEMA}.worker:' || ${param}, 0)`;
}
