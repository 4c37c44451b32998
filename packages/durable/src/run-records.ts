import type { ToolResult } from '@rxagent/core';
import type { Pool } from 'pg';
import { whileUnavailable } from './db-retry.js';
import { prepared } from './prepared.js';
import type { RunControl } from './run-control.js';
import { DBOS_SCHEMA, SCHEMA } from './schema.js';

/** A tool call's row: begun (an at-most-once call may have started), and its result once stored. */
export interface ToolCallRecord {
  began: boolean;
  result: ToolResult | null;
}

/** What storing a checkpoint of the run's own execution found: the value that won, or why nothing was stored. */
export type OwnedStore<T> =
  { stored: true; value: T } | { stored: false; status: 'cancelled' | 'superseded' };

/**
 * What one execution of a run knows is recorded: every `tool_calls` and `records` row of the
 * run, read in one query when the execution starts, and each row it stores itself. A replay
 * asks here instead of reading a row before each step, so a run that records nothing yet (the
 * first execution) pays no read per step. A row stored by another execution after the load
 * (a worker that lost the run and goes on for a while) is not seen here, and is still safe:
 * every write keeps the first value stored and returns it.
 */
export class RunRecords {
  private readonly tools = new Map<string, ToolCallRecord>();
  private readonly values = new Map<string, unknown>();

  constructor(
    private readonly control: RunControl,
    private readonly pool: Pool,
  ) {}

  /** Reads the run's rows (once, when the execution starts). */
  async load(): Promise<void> {
    const { rows } = await this.query<{
      kind: 'tool' | 'record';
      key: string;
      began: boolean;
      value: unknown;
    }>(
      `SELECT 'tool' AS kind, call_id AS key, began, result AS value FROM ${SCHEMA}.tool_calls WHERE run_id = $1
       UNION ALL
       SELECT 'record', key, false, value FROM ${SCHEMA}.records WHERE run_id = $1`,
      [],
    );
    for (const row of rows) {
      if (row.kind === 'tool')
        this.tools.set(row.key, { began: row.began, result: row.value as ToolResult | null });
      else this.values.set(row.key, (row.value as { v: unknown }).v);
    }
  }

  /** A tool call's row, if this execution knows it. */
  tool(callId: string): ToolCallRecord | undefined {
    return this.tools.get(callId);
  }

  /** A record's value (`{ v }`), if this execution knows it. */
  value<T>(key: string): { v: T } | undefined {
    return this.values.has(key) ? { v: this.values.get(key) as T } : undefined;
  }

  /** Marks an at-most-once call begun; false when it had begun already (in an execution before). */
  async begin(callId: string): Promise<boolean> {
    const { rows } = await this.query<{ began: number }>(
      `WITH ins AS (
         INSERT INTO ${SCHEMA}.tool_calls (run_id, call_id, began) VALUES ($1, $2, true)
         ON CONFLICT (run_id, call_id) DO NOTHING RETURNING 1
       )
       SELECT count(*)::int AS began FROM ins`,
      [callId],
    );
    return rows[0]?.began !== 0;
  }

  /** Stores a call's result, the first one stored winning; returns the winner. */
  async storeToolResult(callId: string, result: ToolResult): Promise<ToolResult> {
    const { rows } = await this.query<{ result: ToolResult }>(
      `WITH ins AS (
         INSERT INTO ${SCHEMA}.tool_calls (run_id, call_id, result) VALUES ($1, $2, $3)
         ON CONFLICT (run_id, call_id) DO UPDATE
           SET result = COALESCE(${SCHEMA}.tool_calls.result, EXCLUDED.result)
         RETURNING result
       )
       SELECT result FROM ins`,
      [callId, JSON.stringify(result)],
    );
    const stored = rows[0]?.result ?? result;
    this.tools.set(callId, { began: true, result: stored });
    return stored;
  }

  /** Stores a record, the first one stored winning; returns the winner. */
  async store<T>(key: string, value: T): Promise<T> {
    const { rows } = await this.query<{ value: { v: T } }>(
      `WITH ins AS (
         INSERT INTO ${SCHEMA}.records (run_id, key, value) VALUES ($1, $2, $3)
         ON CONFLICT (run_id, key) DO UPDATE SET value = ${SCHEMA}.records.value
         RETURNING value
       )
       SELECT value FROM ins`,
      [key, JSON.stringify({ v: value ?? null })],
    );
    const stored = rows[0]?.value.v ?? value;
    this.values.set(key, stored);
    return stored;
  }

  /**
   * Stores a record only while this execution owns the run (DBOS's ownership token of the
   * workflow, `ownerXid`) and the run is not cancelled, in one statement that locks the
   * workflow's row as DBOS does for its own step checkpoints: a worker that lost the run, or a
   * cancelled run, stores nothing. The first value stored wins.
   */
  async storeOwned<T>(key: string, value: T, ownerXid: string): Promise<OwnedStore<T>> {
    const { rows } = await this.query<{ value: { v: T } | null; status: string | null }>(
      `WITH wf AS (
         SELECT status, owner_xid FROM "${DBOS_SCHEMA}".workflow_status WHERE workflow_uuid = $1 FOR NO KEY UPDATE
       ), ins AS (
         INSERT INTO ${SCHEMA}.records (run_id, key, value)
         SELECT $1, $2, $3 FROM wf WHERE wf.owner_xid = $4 AND wf.status <> 'CANCELLED'
         ON CONFLICT (run_id, key) DO UPDATE SET value = ${SCHEMA}.records.value
         RETURNING value
       )
       SELECT (SELECT value FROM ins) AS value, wf.status FROM (SELECT 1) AS one LEFT JOIN wf ON true`,
      [key, JSON.stringify({ v: value ?? null }), ownerXid],
    );
    const row = rows[0];
    if (row?.value) {
      this.values.set(key, row.value.v);
      return { stored: true, value: row.value.v };
    }
    return { stored: false, status: row?.status === 'CANCELLED' ? 'cancelled' : 'superseded' };
  }

  /** A statement about this run: `$1` is its id, then `values`. */
  private query<R extends object>(sql: string, values: unknown[]) {
    const params = [this.control.runId, ...values];
    return whileUnavailable(this.control, () => this.pool.query<R>(prepared(sql, params)));
  }
}
