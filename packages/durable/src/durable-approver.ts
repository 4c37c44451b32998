import { DBOS } from '@dbos-inc/dbos-sdk';
import type { ApprovalDecision, Approver } from '@rxagent/core';
import type { Pool } from 'pg';
import { defer } from 'rxjs';
import { handleEngineError, type RunControl } from './run-control.js';
import { SCHEMA } from './schema.js';

/** The message `approve` / `reject` send to a run. */
export interface ApprovalMessage {
  approved: boolean;
  reason?: string;
}

/** The DBOS message topic of one call's approval. */
export const approvalTopic = (toolCallId: string): string => `approval:${toolCallId}`;

/**
 * The approver of a durable run: waits for `approve(runId, callId)` / `reject(…)` from any
 * process with a durable `DBOS.recv` (it survives a crash of the worker, and the timeout keeps
 * counting from the first wait). Fails closed: no answer in time, or anything but
 * `approved: true`, is a rejection.
 */
export function durableApprover(timeoutMs: number, control: RunControl): Approver {
  return (request) =>
    defer(async (): Promise<ApprovalDecision> => {
      const topic = approvalTopic(request.toolCallId);
      control.waiting.add(topic);
      try {
        const message = await DBOS.recv<ApprovalMessage>(topic, { timeoutSeconds: timeoutMs / 1000 });
        if (message === null) {
          return { approved: false, reason: `No decision within ${Math.round(timeoutMs / 1000)} s.` };
        }
        return message.approved === true
          ? { approved: true }
          : { approved: false, ...(typeof message.reason === 'string' ? { reason: message.reason } : {}) };
      } catch (error) {
        if (handleEngineError(control, error)) return new Promise<ApprovalDecision>(() => undefined);
        throw error;
      } finally {
        control.waiting.delete(topic);
      }
    });
}

/**
 * Whether a call of the run waits for a decision: its `approval-request` is in the run's event
 * log and its `approval-end` is not. A watcher learns of a request from that log, so a request
 * it saw is found here.
 */
export async function isWaiting(pool: Pool, runId: string, toolCallId: string): Promise<boolean> {
  const { rows } = await pool.query<{ key: string }>(
    `SELECT key FROM ${SCHEMA}.events WHERE run_id = $1 AND key = ANY($2::text[])`,
    [runId, [`approval-request:${toolCallId}`, `approval-end:${toolCallId}`]],
  );
  return rows.length === 1 && rows[0]?.key === `approval-request:${toolCallId}`;
}
