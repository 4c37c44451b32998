import { serializeError } from '@rxagent/core/provider';
import type { AgentEvent, SerializedError } from '@rxagent/core';
import type { Pool } from 'pg';
import { EventKeys } from './event-key.js';
import { EVENTS_CHANNEL, SCHEMA } from './schema.js';

/** What a log row holds: an event, or the error the run failed with. */
export type LogBody = AgentEvent | { type: 'run-error'; error: SerializedError };

/** How long to wait before writing again after the database refused a write. */
const RETRY_MS = [50, 100, 200, 500, 1000, 2000];

/**
 * Writes one execution of a run to its event log, in order, in batches: events that arrive
 * while a write is in flight go in the next one. A failed write (the database is down) is
 * retried until it succeeds, so nothing is lost and the order holds; `flush()` waits for all.
 */
export class EventLogWriter {
  private readonly keys = new EventKeys();
  private pending: { key: string | null; body: LogBody }[] = [];
  private writing: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly pool: Pool,
    private readonly runId: string,
    /** Values redacted from logged errors (the run's model's `secrets`). */
    private readonly secrets?: readonly string[],
  ) {}

  append(event: AgentEvent): void {
    this.push(this.keys.keyOf(event), event);
  }

  /** Logs the error a run failed with (its watchers fail with it). */
  appendError(error: unknown): void {
    this.push('run-error', { type: 'run-error', error: serializeError(error, { secrets: this.secrets }) });
  }

  /** Logs an event under a key chosen by the caller (a marker such as a crash notice). */
  appendKeyed(key: string, event: AgentEvent): void {
    this.push(key, event);
  }

  /** Stops writing (a fenced worker must not write for a run another worker took over). */
  stop(): void {
    this.stopped = true;
    this.pending = [];
  }

  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private push(key: string | null, body: LogBody): void {
    if (this.stopped) return;
    this.pending.push({ key, body });
    if (!this.writing) this.writing = this.drain();
  }

  private async drain(): Promise<void> {
    try {
      let failures = 0;
      while (this.pending.length > 0 && !this.stopped) {
        const batch = this.pending;
        this.pending = [];
        try {
          await this.insert(batch);
          failures = 0;
        } catch {
          // Keep the batch first in line and wait: the database may be restarting.
          this.pending = batch.concat(this.pending);
          await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(failures++, RETRY_MS.length - 1)]));
        }
      }
    } finally {
      this.writing = undefined;
    }
  }

  private async insert(batch: { key: string | null; body: LogBody }[]): Promise<void> {
    await this.pool.query(
      `WITH rows AS (
         SELECT k, b, o FROM unnest($2::text[], $3::jsonb[]) WITH ORDINALITY AS t(k, b, o)
       ), ins AS (
         INSERT INTO ${SCHEMA}.events (run_id, key, body)
         SELECT $1, k, b FROM rows ORDER BY o
         ON CONFLICT (run_id, key) DO NOTHING
       )
       SELECT pg_notify('${EVENTS_CHANNEL}', $1)`,
      [this.runId, batch.map((e) => e.key), batch.map((e) => JSON.stringify(e.body))],
    );
  }
}

/** One row of a run's log. */
export interface LogRow {
  seq: number;
  body: LogBody;
}

/** The rows of a run's log after `afterSeq`, in order. */
export async function readLog(pool: Pool, runId: string, afterSeq: number, limit = 1000): Promise<LogRow[]> {
  const result = await pool.query<{ seq: string; body: LogBody }>(
    `SELECT seq, body FROM ${SCHEMA}.events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [runId, afterSeq, limit],
  );
  return result.rows.map((r) => ({ seq: Number(r.seq), body: r.body }));
}
