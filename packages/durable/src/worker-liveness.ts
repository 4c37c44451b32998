import { Client } from 'pg';
import { debugLog } from './debug-log.js';
import { SCHEMA, workerLockSql } from './schema.js';

/**
 * Options of the liveness watch.
 */
export interface LivenessOptions {
  databaseUrl: string;
  workerId: string;
  /** A worker whose lock stays free this long is dead (default 1500 ms). */
  deadAfterMs: number;
  /** How often to look (default 250 ms). */
  intervalMs: number;
  /** Re-queues a dead worker's pending runs (DBOS recovery for its executor id). */
  recover(deadWorkerId: string): Promise<void>;
  /** This worker's runs were taken over (its row was removed while it was cut off): stop them. */
  onFenced(): void;
}

/**
 * Who is alive, by PostgreSQL advisory locks: each worker holds a session lock on its own id
 * on a connection of its own, which PostgreSQL frees the moment the process dies. A worker whose
 * lock stays free for `deadAfterMs` — judged only by a watcher that itself held its lock that
 * long, so a database restart, which frees every lock at once, kills no one — is dead: the
 * watcher re-queues its pending runs (any worker may then take them) and removes its row. A worker that reconnects and finds its own row gone knows its runs were
 * taken over and fences itself.
 */
export class WorkerLiveness {
  private client: Client | undefined;
  private heldSince = 0;
  private readonly freeSince = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private busy = false;
  private stopped = false;

  constructor(private readonly options: LivenessOptions) {}

  /** Takes this worker's lock; fails if a live worker holds the same id. */
  async start(models: string[], tools: string[], names: Record<string, string[]> = {}): Promise<void> {
    const client = await this.connect();
    const { rows } = await client.query<{ ok: boolean }>(
      `SELECT pg_try_advisory_lock(${workerLockSql('$1')}) AS ok`,
      [this.options.workerId],
    );
    if (!rows[0]?.ok) {
      await client.end();
      throw new Error(
        `Worker id "${this.options.workerId}" is in use by a live worker: give each worker its own id.`,
      );
    }
    await client.query(
      `INSERT INTO ${SCHEMA}.workers (worker_id, models, tools, names) VALUES ($1, $2, $3, $4)
       ON CONFLICT (worker_id) DO UPDATE SET models = $2, tools = $3, names = $4, started_at = now()`,
      [this.options.workerId, models, tools, JSON.stringify(names)],
    );
    this.client = client;
    this.heldSince = Date.now();
    this.timer = setInterval(() => void this.tick(), this.options.intervalMs);
  }

  async stop(removeRow: boolean): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    while (this.busy) await new Promise((r) => setTimeout(r, 10));
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    try {
      if (removeRow)
        await client.query(`DELETE FROM ${SCHEMA}.workers WHERE worker_id = $1`, [this.options.workerId]);
      await client.end();
    } catch {
      // The database is gone: the lock went with the connection.
    }
  }

  private async connect(): Promise<Client> {
    const client = new Client({ connectionString: this.options.databaseUrl });
    client.on('error', () => this.lost(client));
    await client.connect();
    return client;
  }

  private lost(client: Client): void {
    debugLog(`worker ${this.options.workerId}: lost its liveness connection`);
    if (this.client === client) {
      this.client = undefined;
      this.heldSince = 0;
      this.freeSince.clear();
    }
    client.end().catch(() => undefined);
  }

  private async tick(): Promise<void> {
    if (this.busy || this.stopped) return;
    this.busy = true;
    try {
      if (!this.client) await this.reacquire();
      else await this.watchOthers(this.client);
    } catch {
      if (this.client) this.lost(this.client);
    } finally {
      this.busy = false;
    }
  }

  private async reacquire(): Promise<void> {
    const client = await this.connect();
    const { rows } = await client.query<{ ok: boolean }>(
      `SELECT pg_try_advisory_lock(${workerLockSql('$1')}) AS ok,
              EXISTS (SELECT 1 FROM ${SCHEMA}.workers WHERE worker_id = $1) AS present`,
      [this.options.workerId],
    );
    const row = rows[0] as unknown as { ok: boolean; present: boolean } | undefined;
    if (row && !row.present) {
      // Another worker recovered this worker's runs while it was cut off: they are not ours now.
      debugLog(`worker ${this.options.workerId}: its runs were taken over while it was cut off`);
      await client.end().catch(() => undefined);
      this.stopped = true;
      if (this.timer) clearInterval(this.timer);
      this.options.onFenced();
      return;
    }
    if (!row?.ok) {
      // Our old session still holds the lock while PostgreSQL closes it: try again next tick.
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.heldSince = Date.now();
  }

  private async watchOthers(client: Client): Promise<void> {
    const { rows } = await client.query<{ worker_id: string }>(
      `SELECT worker_id FROM ${SCHEMA}.workers WHERE worker_id <> $1`,
      [this.options.workerId],
    );
    const now = Date.now();
    const trusted = now - this.heldSince >= this.options.deadAfterMs;
    for (const { worker_id: other } of rows) {
      const free = await this.lockIsFree(client, other);
      if (!free) {
        this.freeSince.delete(other);
        continue;
      }
      const since = this.freeSince.get(other) ?? now;
      this.freeSince.set(other, since);
      if (trusted && now - since >= this.options.deadAfterMs) {
        // Re-queueing is idempotent (only runs still pending under that id), so two watchers
        // may both do it; the row goes only once it is done.
        debugLog(`worker ${this.options.workerId}: worker ${other} is dead; re-queueing its runs`);
        await this.options.recover(other);
        await client.query(`DELETE FROM ${SCHEMA}.workers WHERE worker_id = $1`, [other]);
        this.freeSince.delete(other);
      }
    }
  }

  private async lockIsFree(client: Client, workerId: string): Promise<boolean> {
    const { rows } = await client.query<{ ok: boolean }>(
      `SELECT pg_try_advisory_lock(${workerLockSql('$1')}) AS ok`,
      [workerId],
    );
    if (!rows[0]?.ok) return false;
    await client.query(`SELECT pg_advisory_unlock(${workerLockSql('$1')})`, [workerId]);
    return true;
  }
}
