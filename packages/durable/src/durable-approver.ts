import type { ApprovalDecision, Approver } from '@rxagent/core';
import type { Pool } from 'pg';
import { Observable } from 'rxjs';
import { whileUnavailable } from './db-retry.js';
import type { EventListener } from './event-listener.js';
import type { RunControl } from './run-control.js';
import { DECISIONS_CHANNEL, SCHEMA } from './schema.js';

/** A decision as stored in `approvals` (what `approve` / `reject` and a cancel write). */
export interface ApprovalMessage {
  approved: boolean;
  reason?: string;
}

/** How often a waiting approval looks at its row when no notification came. */
const POLL_MS = 1000;

/**
 * The approver of a durable run: waits for `approve(runId, callId)` / `reject(…)` from any
 * process, in the `approvals` row of (run id, call id). The row records when the wait began,
 * by the database's clock, so a worker that takes the run over after a crash goes on waiting
 * for what is left of the timeout. Calls waiting in parallel each have their own row. Fails
 * closed: no answer in time, or anything but `approved: true`, is a rejection.
 */
export function durableApprover(
  timeoutMs: number,
  control: RunControl,
  pool: Pool,
  decisions: EventListener,
): Approver {
  const runId = control.runId;
  return (request) =>
    new Observable<ApprovalDecision>((subscriber) => {
      let done = false;
      let wake: (() => void) | undefined;
      let notified = false;
      const stopListening = decisions.on(runId, () => {
        notified = true;
        wake?.();
      });
      const query = <R extends object>(sql: string, values: unknown[]) =>
        whileUnavailable(control, () => pool.query<R>(sql, values));
      const timedOut: ApprovalMessage = {
        approved: false,
        reason: `No decision within ${Math.round(timeoutMs / 1000)} s.`,
      };
      void (async () => {
        await query(
          `INSERT INTO ${SCHEMA}.approvals (run_id, call_id) VALUES ($1, $2) ON CONFLICT (run_id, call_id) DO NOTHING`,
          [runId, request.toolCallId],
        );
        while (!done) {
          notified = false;
          const { rows } = await query<{ decision: ApprovalMessage | null; waited: number }>(
            `SELECT decision, EXTRACT(EPOCH FROM (now() - waiting_since)) * 1000 AS waited
             FROM ${SCHEMA}.approvals WHERE run_id = $1 AND call_id = $2`,
            [runId, request.toolCallId],
          );
          const row = rows[0];
          let decision = row?.decision ?? undefined;
          const waited = Number(row?.waited ?? 0);
          if (!decision && waited >= timeoutMs) {
            const stored = await query<{ decision: ApprovalMessage }>(
              `UPDATE ${SCHEMA}.approvals SET decision = COALESCE(decision, $3::jsonb)
               WHERE run_id = $1 AND call_id = $2 RETURNING decision`,
              [runId, request.toolCallId, JSON.stringify(timedOut)],
            );
            decision = stored.rows[0]?.decision ?? timedOut;
          }
          if (decision) {
            if (done) return;
            subscriber.next(
              decision.approved === true
                ? { approved: true }
                : {
                    approved: false,
                    ...(typeof decision.reason === 'string' ? { reason: decision.reason } : {}),
                  },
            );
            subscriber.complete();
            return;
          }
          if (notified) continue;
          decisions.reconnect();
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.min(POLL_MS, Math.max(1, timeoutMs - waited)));
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wake = undefined;
        }
      })().catch((error: unknown) => subscriber.error(error));
      return () => {
        done = true;
        stopListening();
        wake?.();
      };
    });
}

/**
 * Stores a decision for a call of the run that waits for one: its `approval-request` is in the
 * run's event log (where a watcher learned of it) and no decision is stored yet. Returns false,
 * storing nothing, otherwise: a decision never waits for a call to come.
 */
export async function storeDecision(
  pool: Pool,
  runId: string,
  toolCallId: string,
  decision: ApprovalMessage,
): Promise<boolean> {
  const { rowCount } = await pool.query(
    `WITH asked AS (
       SELECT 1 FROM ${SCHEMA}.events WHERE run_id = $1 AND key = 'approval-request:' || $2
       AND NOT EXISTS (SELECT 1 FROM ${SCHEMA}.events WHERE run_id = $1 AND key = 'approval-end:' || $2)
     ), stored AS (
       INSERT INTO ${SCHEMA}.approvals (run_id, call_id, decision)
       SELECT $1, $2, $3::jsonb FROM asked
       ON CONFLICT (run_id, call_id) DO UPDATE SET decision = EXCLUDED.decision
         WHERE ${SCHEMA}.approvals.decision IS NULL
       RETURNING 1
     )
     SELECT pg_notify('${DECISIONS_CHANNEL}', $1) FROM stored`,
    [runId, toolCallId, JSON.stringify(decision)],
  );
  return rowCount === 1;
}

/** Rejects every call of the run that waits for a decision (the run was cancelled). */
export async function rejectWaiting(pool: Pool, runId: string, reason: string): Promise<void> {
  await pool.query(
    `WITH stored AS (
       UPDATE ${SCHEMA}.approvals SET decision = $2::jsonb WHERE run_id = $1 AND decision IS NULL RETURNING 1
     )
     SELECT pg_notify('${DECISIONS_CHANNEL}', $1) FROM stored LIMIT 1`,
    [runId, JSON.stringify({ approved: false, reason })],
  );
}
