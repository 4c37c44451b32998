import type { Pool } from 'pg';

/** The schema of rxagent's own tables, beside DBOS's `dbos` schema in the same database. */
export const SCHEMA = 'rxagent_durable';

/** The schema of DBOS's own tables (its default), where each workflow's status and owner are. */
export const DBOS_SCHEMA = 'dbos';

/** Channel notified with a run id whenever that run's event log grows. */
export const EVENTS_CHANNEL = 'rxagent_durable_events';

/** Channel notified with a run id whenever a decision on one of its calls (or a message for it) is stored. */
export const DECISIONS_CHANNEL = 'rxagent_durable_decisions';

/**
 * `events`: each run's event log, in order (`seq`), deduplicated by `key` so that a run replayed
 * after a crash does not log twice what it logged before. `workers`: each worker's id and what
 * it registered; a worker holds an advisory lock on its id while it lives. `tool_calls`: each
 * call's record by (run id, call id): begun (an at-most-once call may have started) and its
 * result; keyed by the run-unique call id, so calls running in parallel find their records
 * whatever order they finished in. `approvals`: each call's wait for a decision (since when, by
 * the database's clock) and the decision, the first one stored winning. `records`: what a run's
 * guardrails and context manager answered, by a key that names the check and its place in the
 * run, so a replay reads the answer instead of asking again. `run_messages`: steering and
 * follow-up messages sent to a run, and the step that took each. `conversations`: each
 * `DurableAgent` conversation: how many runs it started, the last one, and its transcript as of
 * the run that ended last.
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
CREATE TABLE IF NOT EXISTS ${SCHEMA}.tool_calls (
  run_id text NOT NULL,
  call_id text NOT NULL,
  began boolean NOT NULL DEFAULT false,
  result jsonb,
  PRIMARY KEY (run_id, call_id)
);
CREATE TABLE IF NOT EXISTS ${SCHEMA}.approvals (
  run_id text NOT NULL,
  call_id text NOT NULL,
  waiting_since timestamptz NOT NULL DEFAULT now(),
  decision jsonb,
  PRIMARY KEY (run_id, call_id)
);
CREATE TABLE IF NOT EXISTS ${SCHEMA}.records (
  run_id text NOT NULL,
  key text NOT NULL,
  value jsonb NOT NULL,
  PRIMARY KEY (run_id, key)
);
CREATE TABLE IF NOT EXISTS ${SCHEMA}.run_messages (
  seq bigserial PRIMARY KEY,
  run_id text NOT NULL,
  kind text NOT NULL,
  body jsonb NOT NULL,
  delivered_step integer
);
CREATE INDEX IF NOT EXISTS run_messages_run ON ${SCHEMA}.run_messages (run_id, seq);
CREATE TABLE IF NOT EXISTS ${SCHEMA}.conversations (
  conversation_id text PRIMARY KEY,
  runs integer NOT NULL DEFAULT 0,
  last_run_id text,
  transcript jsonb NOT NULL DEFAULT '[]'::jsonb,
  transcript_run text
);
CREATE TABLE IF NOT EXISTS ${SCHEMA}.workers (
  worker_id text PRIMARY KEY,
  models text[] NOT NULL,
  tools text[] NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE ${SCHEMA}.workers ADD COLUMN IF NOT EXISTS names jsonb NOT NULL DEFAULT '{}'::jsonb;
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
