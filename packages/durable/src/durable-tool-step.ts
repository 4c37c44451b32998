import type { ToolMiddleware, ToolResult } from '@rxagent/core';
import type { Pool } from 'pg';
import { from, lastValueFrom } from 'rxjs';
import { whileUnavailable } from './db-retry.js';
import type { ToolDurability } from './durable-tool.js';
import type { RunControl } from './run-control.js';
import { SCHEMA } from './schema.js';

/**
 * What the model reads for an at-most-once call that a worker crash may have cut short.
 *
 * @example
 * const sealed = messages.filter((m) => m.role === 'tool' && contentText(m) === INTERRUPTED_TEXT);
 */
export const INTERRUPTED_TEXT =
  'This tool call was interrupted by a worker crash; it may or may not have taken effect. ' +
  'Check its effect before calling it again.';

const INTERRUPTED: ToolResult = {
  content: [{ type: 'text', text: INTERRUPTED_TEXT }],
  isError: true,
  errorType: 'interrupted',
};

/**
 * The tool seam of a durable run, innermost of the middlewares: each call's result is recorded
 * in `tool_calls` under (run id, run-unique call id), so calls that run in parallel find their
 * own records after a crash, whatever order they finished in (DBOS's steps are matched by the
 * order they are issued, which parallel calls do not keep). A recorded call returns its record.
 * An at-most-once call first records that it began; a replay that finds it begun but without a
 * result knows it may have started, and seals it with `INTERRUPTED_TEXT` instead of running it
 * again. An idempotent call without a result is run again. The first result stored wins, so a
 * worker that lost the run cannot change what the run read.
 */
export function durableToolStep(
  durabilityOf: (name: string) => ToolDurability,
  control: RunControl,
  pool: Pool,
): ToolMiddleware {
  const runId = control.runId;
  const query = <R extends object>(sql: string, values: unknown[]) =>
    whileUnavailable(control, () => pool.query<R>(sql, values));
  return (call, _ctx, next) =>
    from(
      (async (): Promise<ToolResult> => {
        const { rows } = await query<{ began: boolean; result: ToolResult | null }>(
          `SELECT began, result FROM ${SCHEMA}.tool_calls WHERE run_id = $1 AND call_id = $2`,
          [runId, call.id],
        );
        const recorded = rows[0];
        if (recorded?.result) return recorded.result;
        let sealed = false;
        if (durabilityOf(call.name) === 'at-most-once') {
          const begun = await query(
            `INSERT INTO ${SCHEMA}.tool_calls (run_id, call_id, began) VALUES ($1, $2, true)
             ON CONFLICT (run_id, call_id) DO NOTHING`,
            [runId, call.id],
          );
          sealed = begun.rowCount === 0;
        }
        const result = sealed ? INTERRUPTED : await lastValueFrom(next(call));
        const stored = await query<{ result: ToolResult }>(
          `INSERT INTO ${SCHEMA}.tool_calls (run_id, call_id, result) VALUES ($1, $2, $3)
           ON CONFLICT (run_id, call_id) DO UPDATE
             SET result = COALESCE(${SCHEMA}.tool_calls.result, EXCLUDED.result)
           RETURNING result`,
          [runId, call.id, JSON.stringify(result)],
        );
        return stored.rows[0]?.result ?? result;
      })(),
    );
}
