import { turnOperator, type LoopOperator, type MessageQueue, type UserInput } from '@rxagent/core';
import type { Pool } from 'pg';
import { whileUnavailable } from './db-retry.js';
import { prepared } from './prepared.js';
import type { RunControl } from './run-control.js';
import { SCHEMA } from './schema.js';

/** What a run message is: steering (delivered at the next turn) or a follow-up (when the run would stop). */
export type RunMessageKind = 'steer' | 'follow-up';

/**
 * Stores a steering or follow-up message for a run that has not ended; false, storing
 * nothing, when it ended (or never existed).
 */
export async function sendRunMessage(
  pool: Pool,
  runId: string,
  kind: RunMessageKind,
  message: UserInput,
  running: boolean,
): Promise<boolean> {
  if (!running) return false;
  await pool.query(`INSERT INTO ${SCHEMA}.run_messages (run_id, kind, body) VALUES ($1, $2, $3)`, [
    runId,
    kind,
    JSON.stringify(message),
  ]);
  return true;
}

/**
 * The end of each step of a durable run: the messages sent to the run since the last step are
 * taken by this step (their rows record its number), and pushed into
 * the run's steering and follow-up queues, where the loop takes them as it does in process
 * (steering at the next turn, follow-ups when the run would stop). A replay finds the step's
 * rows and takes the same messages at the same step, and never takes at an earlier step a
 * message that came later: the transcript it rebuilds is the one the run had.
 */
export function takeRunMessages(
  control: RunControl,
  pool: Pool,
  queues: { steer: MessageQueue; followUp: MessageQueue },
): LoopOperator {
  return turnOperator('durableMessages', async (turn) => {
    const messages = await whileUnavailable(control, () => take(pool, control.runId, turn.step));
    for (const m of messages) (m.kind === 'steer' ? queues.steer : queues.followUp).push(m.body);
    return turn;
  });
}

async function take(
  pool: Pool,
  runId: string,
  step: number,
): Promise<{ kind: RunMessageKind; body: UserInput }[]> {
  // One statement: a step after this one already took its messages (`later`) means a replay,
  // which takes only what this step took; otherwise the step takes what came and says so.
  const { rows } = await pool.query<{ kind: RunMessageKind; body: UserInput }>(
    prepared(
      `WITH later AS (
       SELECT 1 FROM ${SCHEMA}.records
       WHERE run_id = $1 AND key = 'messages-taken' AND (value->>'v')::int >= $2
     ), taken AS (
       UPDATE ${SCHEMA}.run_messages SET delivered_step = $2
       WHERE run_id = $1 AND delivered_step IS NULL AND NOT EXISTS (SELECT 1 FROM later)
       RETURNING seq, kind, body
     ), marked AS (
       INSERT INTO ${SCHEMA}.records (run_id, key, value)
       SELECT $1, 'messages-taken', jsonb_build_object('v', $2::int) WHERE NOT EXISTS (SELECT 1 FROM later)
       ON CONFLICT (run_id, key) DO UPDATE SET value = EXCLUDED.value
     )
     SELECT kind, body FROM (
       SELECT seq, kind, body FROM ${SCHEMA}.run_messages WHERE run_id = $1 AND delivered_step = $2
       UNION ALL SELECT seq, kind, body FROM taken
     ) AS rows ORDER BY seq`,
      [runId, step],
    ),
  );
  return rows;
}
