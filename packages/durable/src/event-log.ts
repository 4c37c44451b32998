import { serializeError } from '@rxagent/core/provider';
import type { AgentEvent, SerializedError } from '@rxagent/core';
import { createWireEncoder, type WireEvent } from '@rxagent/core/streams';
import type { Pool } from 'pg';
import { coalesceUpdates } from './coalesce-updates.js';
import { EventKeys } from './event-key.js';
import { prepared } from './prepared.js';
import { EVENTS_CHANNEL, SCHEMA } from './schema.js';

/**
 * What a log row holds: an event in the wire format of `@rxagent/core/streams` (without its
 * `seq`: a row's place in the log is its number), or the error the run failed with.
 */
export type LogBody = Omit<WireEvent, 'seq'> | { type: 'run-error'; error: SerializedError };

/** An entry waiting to be written: the event, until it is encoded (once, in order). */
interface Pending {
  key: string | null;
  event?: AgentEvent;
  body?: LogBody;
}

/** How long to wait before writing again after the database refused a write. */
const RETRY_MS = [50, 100, 200, 500, 1000, 2000];

/** At most one write of a run's log per this many ms: a busy run's events wait for the next one. */
const WRITE_EVERY_MS = 10;

/**
 * Writes one execution of a run to its event log, in order, in batches: a burst of events goes
 * in one write, events that arrive while a write is in flight go in the next one, and writes
 * begin at most every `WRITE_EVERY_MS` (an event after a quiet spell is written at once). Events
 * are written in the wire format (one encoder per execution: its first delta of a message
 * carries the partial message, so a watcher never folds one execution's deltas onto another's),
 * and the streamed deltas of a batch are joined into one row: the log grows with the answer,
 * not with its square. A message already written is referred to by its row's key, the same in
 * every execution. A failed write (the database is down) is retried until it succeeds, so
 * nothing is lost and the order holds; `flush()` waits for all.
 */
export class EventLogWriter {
  private readonly keys = new EventKeys();
  private readonly encoder = createWireEncoder();
  private pending: Pending[] = [];
  private writing: Promise<void> | undefined;
  /** When the last write began (`performance.now()`). */
  private lastWrite = -Infinity;
  private stopped = false;

  constructor(
    private readonly pool: Pool,
    private readonly runId: string,
    /** Values redacted from logged errors (the run's model's `secrets`). */
    private readonly secrets?: readonly string[],
  ) {}

  append(event: AgentEvent): void {
    const key = this.keys.keyOf(event);
    const last = this.pending[this.pending.length - 1];
    if (key === null && last && last.key === null && last.event && !this.stopped) {
      const merged = coalesceUpdates(last.event, event);
      if (merged) {
        last.event = merged;
        return;
      }
    }
    this.push(key, event);
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

  private push(key: string | null, body: LogBody | AgentEvent): void {
    if (this.stopped) return;
    this.pending.push(
      body.type === 'run-error' && 'error' in body ? { key, body } : { key, event: body as AgentEvent },
    );
    if (!this.writing) this.writing = this.drain();
  }

  private async drain(): Promise<void> {
    try {
      let failures = 0;
      while (this.pending.length > 0 && !this.stopped) {
        // A burst of events goes in one write; so do the events of a busy run's next few ms.
        const wait = this.lastWrite + WRITE_EVERY_MS - performance.now();
        await new Promise((r) => (wait > 0 ? setTimeout(r, wait) : setImmediate(r)));
        if (this.pending.length === 0 || this.stopped) break;
        this.lastWrite = performance.now();
        const batch = this.pending;
        this.pending = [];
        for (const entry of batch) this.encode(entry);
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

  /** Encodes an entry once (a batch retried after a failed write keeps its bodies). */
  private encode(entry: Pending): void {
    if (entry.body || !entry.event) return;
    const { seq: _seq, ...body } = this.encoder.encode(entry.event, undefined, entry.key ?? undefined);
    entry.body = body;
    entry.event = undefined;
  }

  private async insert(batch: Pending[]): Promise<void> {
    await this.pool.query(
      prepared(
        `WITH rows AS (
         SELECT k, b, o FROM unnest($2::text[], $3::jsonb[]) WITH ORDINALITY AS t(k, b, o)
       ), ins AS (
         INSERT INTO ${SCHEMA}.events (run_id, key, body)
         SELECT $1, k, b FROM rows ORDER BY o
         ON CONFLICT (run_id, key) DO NOTHING
       )
       SELECT pg_notify('${EVENTS_CHANNEL}', $1)`,
        [this.runId, batch.map((e) => e.key), batch.map((e) => JSON.stringify(e.body))],
      ),
    );
  }
}

/** One row of a run's log: its place (global), its key (null for streamed deltas), its body. */
export interface LogRow {
  seq: number;
  key: string | null;
  body: LogBody;
}

/** The rows of a run's log after `afterSeq`, in order. */
export async function readLog(pool: Pool, runId: string, afterSeq: number, limit = 1000): Promise<LogRow[]> {
  const result = await pool.query<{ seq: string; key: string | null; body: LogBody }>(
    `SELECT seq, key, body FROM ${SCHEMA}.events WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
    [runId, afterSeq, limit],
  );
  return result.rows.map((r) => ({ seq: Number(r.seq), key: r.key, body: r.body }));
}
