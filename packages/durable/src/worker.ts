import { DBOS } from '@dbos-inc/dbos-sdk';
import { DBOSExecutor } from '@dbos-inc/dbos-sdk/internal/dbos-executor';
import type { AnyTool, ChatModel } from '@rxagent/core';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Pool } from 'pg';
import { DurableUsageError } from './durable-errors.js';
import type { DurableTool } from './durable-tool.js';
import { buildRegistry, registryNames, type Registry, type WorkerRegistrations } from './registry.js';
import { executeRun, RUN_WORKFLOW, type RunSummary, type WorkflowEnv } from './run-workflow.js';
import type { DurableRunSpec } from './run-spec.js';
import { DECISIONS_CHANNEL, ensureSchema, SCHEMA } from './schema.js';
import { EventListener } from './event-listener.js';
import { rejectWaiting } from './durable-approver.js';
import { WorkerLiveness } from './worker-liveness.js';
import { debugLog } from './debug-log.js';
import type { RunControl } from './run-control.js';
import { systemDatabaseUrl } from './system-database-url.js';

/** The DBOS queue durable runs are enqueued on. */
export const RUN_QUEUE = 'rxagent-runs';
/** The DBOS application name of rxagent's durable runs. */
export const APP_NAME = 'rxagent';

/**
 * Options of `startWorker`.
 *
 * @example
 * const options: WorkerOptions = {
 *   databaseUrl: 'postgres://app@127.0.0.1:5432/agents',
 *   models: { main: openaiModel },
 *   tools: [durableTool(search, { durability: 'idempotent' }), sendEmail],
 *   concurrency: { perWorker: 4, global: 20 },
 * };
 */
export interface WorkerOptions extends WorkerRegistrations {
  /** The PostgreSQL database DBOS and rxagent keep their tables in (shared by every worker and client). */
  databaseUrl: string;
  /** This worker's id (DBOS executor id); unique among live workers. Default host-pid-random. */
  workerId?: string;
  /** Models by the names runs use; every worker registers the same names. */
  models: Readonly<Record<string, ChatModel>>;
  /** Tools, plain (at-most-once) or with `durableTool(tool, { durability })`; registered by tool name. */
  tools?: readonly (AnyTool | DurableTool)[];
  /** Runs executing at once: in this worker, and across all workers. Default 8 per worker, no global limit. */
  concurrency?: { perWorker?: number; global?: number };
  /** How often the queue is polled for new runs (default 100 ms). */
  pollIntervalMs?: number;
  /** A worker whose liveness lock stays free this long is dead and its runs move (default 1500 ms). */
  deadAfterMs?: number;
  /** All workers of a deployment run the same code: DBOS only recovers runs of the same version. Default `rxagent-durable`. */
  applicationVersion?: string;
  /** DBOS's log level (default `error`). */
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /** Called when the worker stops itself because its runs were taken over while it was cut off from the database. */
  onFenced?: () => void;
}

/**
 * A running worker. Stop it with `stop()`; its runs in flight stay pending in PostgreSQL and
 * another worker (or this one, restarted with the same id) resumes them.
 *
 * @example
 * const worker = await startWorker(options);
 * process.on('SIGTERM', () => void worker.stop());
 */
export interface DurableWorker {
  readonly workerId: string;
  /** Ids of the runs executing in this worker now. */
  activeRuns(): string[];
  stop(): Promise<void>;
}

// DBOS is a process-wide engine: a process has one worker, registered once. This is the
// process's binding to its engine, not the state of a run (runs keep theirs in PostgreSQL).
// eslint-disable-next-line no-restricted-syntax
let running: { env: WorkflowEnv } | undefined;
// eslint-disable-next-line no-restricted-syntax
let registeredWorkflow: ((spec: DurableRunSpec) => Promise<RunSummary>) | undefined;

function checkPositive(name: string, value: number | undefined, integer = true): void {
  if (value === undefined) return;
  if (!(typeof value === 'number' && value > 0 && (!integer || Number.isInteger(value)))) {
    throw new DurableUsageError(
      `startWorker: ${name} must be a positive ${integer ? 'integer' : 'number'}; got ${String(value)}.`,
    );
  }
}

function registry(options: WorkerOptions): Registry {
  if (typeof options.databaseUrl !== 'string' || options.databaseUrl === '') {
    throw new DurableUsageError(
      'startWorker needs databaseUrl: the PostgreSQL URL shared by workers and clients.',
    );
  }
  checkPositive('concurrency.perWorker', options.concurrency?.perWorker);
  checkPositive('concurrency.global', options.concurrency?.global);
  checkPositive('pollIntervalMs', options.pollIntervalMs, false);
  checkPositive('deadAfterMs', options.deadAfterMs, false);
  return buildRegistry(options);
}

/**
 * Starts a worker in this process (one per process: DBOS is a process-wide engine). It
 * registers the run workflow, its models and tools by name, launches DBOS on `databaseUrl`
 * (which recovers this worker id's own unfinished runs), takes runs from the queue, and watches
 * the other workers: when one dies, its unfinished runs are re-queued and resume on a live
 * worker from their last recorded step.
 *
 * @example
 * const worker = await startWorker({
 *   databaseUrl: process.env.DATABASE_URL!,
 *   models: { main: anthropicModel },
 *   tools: [durableTool(readFile, { durability: 'idempotent' }), appendLine],
 * });
 */
export async function startWorker(options: WorkerOptions): Promise<DurableWorker> {
  const registered = registry(options);
  const { models, tools } = registered;
  if (running)
    throw new DurableUsageError(
      'A worker already runs in this process: DBOS allows one per process. Stop it first.',
    );
  const workerId = options.workerId ?? `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const pool = new Pool({ connectionString: options.databaseUrl, max: 8 });
  pool.on('error', () => undefined);
  const decisions = new EventListener(options.databaseUrl, DECISIONS_CHANNEL);
  const env: WorkflowEnv = { pool, registry: registered, active: new Map<string, RunControl>(), decisions };
  running = { env };
  let liveness: WorkerLiveness | undefined;
  let cancelTimer: ReturnType<typeof setInterval> | undefined;
  let launched = false;
  const stop = async (removeRow: boolean): Promise<void> => {
    if (cancelTimer) clearInterval(cancelTimer);
    // Runs in flight stay pending in PostgreSQL for a worker to resume: dropped here without a
    // trace (no abort, no error in their logs).
    for (const control of env.active.values()) control.fence();
    await liveness?.stop(removeRow);
    if (launched) await DBOS.shutdown();
    await decisions.close();
    await pool.end().catch(() => undefined);
    if (running?.env === env) running = undefined;
  };
  try {
    await ensureSchema(pool);
    liveness = new WorkerLiveness({
      databaseUrl: options.databaseUrl,
      workerId,
      deadAfterMs: options.deadAfterMs ?? 1500,
      intervalMs: Math.min(250, (options.deadAfterMs ?? 1500) / 3),
      recover: async (dead) => {
        await DBOSExecutor.globalInstance?.recoverPendingWorkflows([dead]);
      },
      onFenced: () => {
        for (const control of env.active.values()) control.fence();
        void stop(false).finally(() => options.onFenced?.());
      },
    });
    await liveness.start([...models.keys()], [...tools.keys()], registryNames(registered));
    DBOS.setConfig({
      name: APP_NAME,
      systemDatabaseUrl: systemDatabaseUrl(options.databaseUrl),
      executorID: workerId,
      applicationVersion: options.applicationVersion ?? 'rxagent-durable',
      logLevel: options.logLevel ?? 'error',
    });
    // Registered once per process; the registered function reads the worker running now.
    if (!registeredWorkflow) {
      registeredWorkflow = DBOS.registerWorkflow(
        async (spec: DurableRunSpec) => {
          if (!running) throw new DurableUsageError('No worker runs in this process.');
          return executeRun(running.env, spec);
        },
        { name: RUN_WORKFLOW },
      );
    }
    await launchSerialized(pool, () => DBOS.launch());
    launched = true;
    await DBOS.registerQueue(RUN_QUEUE, {
      ...(options.concurrency?.perWorker !== undefined || options.concurrency === undefined
        ? { workerConcurrency: options.concurrency?.perWorker ?? 8 }
        : {}),
      ...(options.concurrency?.global !== undefined ? { globalConcurrency: options.concurrency.global } : {}),
      minPollingIntervalMs: options.pollIntervalMs ?? 100,
      onConflict: 'always_update',
    });
    // One look at a time: while PostgreSQL is down a look waits, and looks must not pile up.
    let looking = false;
    cancelTimer = setInterval(() => {
      if (looking) return;
      looking = true;
      void watchCancellations(env).finally(() => (looking = false));
    }, 200);
  } catch (error) {
    await stop(false);
    throw error;
  }
  return {
    workerId,
    activeRuns: () => [...env.active.keys()],
    stop: () => stop(true),
  };
}

/**
 * Runs DBOS's launch under a database-wide lock: workers launching together on a new database
 * would otherwise run DBOS's schema migrations at once, and PostgreSQL kills one with a deadlock.
 * The lock is tried, not waited for: a statement waiting for it would hold a snapshot, and
 * DBOS's `CREATE INDEX CONCURRENTLY` waits for every open snapshot — a deadlock PostgreSQL does
 * not see.
 */
async function launchSerialized(pool: Pool, launch: () => Promise<void>): Promise<void> {
  const client = await pool.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ ok: boolean }>(
        `SELECT pg_try_advisory_lock(hashtext('${SCHEMA}.launch')) AS ok`,
      );
      if (rows[0]?.ok) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await launch();
  } finally {
    await client.query(`SELECT pg_advisory_unlock(hashtext('${SCHEMA}.launch'))`).catch(() => undefined);
    client.release();
  }
}

/** Aborts the runs of this worker that were cancelled from any process, and wakes their approvals. */
async function watchCancellations(env: WorkflowEnv): Promise<void> {
  const ids = [...env.active.keys()];
  if (ids.length === 0) return;
  try {
    // A quick probe on our own pool first: with the database down it fails at once, where DBOS's
    // listing would retry with backoff for seconds, and those retries outlive a stopped worker.
    await env.pool.query('SELECT 1');
    const cancelled = await DBOS.listWorkflows({ workflowIDs: ids, status: 'CANCELLED' });
    for (const status of cancelled) {
      const control = env.active.get(status.workflowID);
      if (!control) continue;
      control.cancel();
      await rejectWaiting(env.pool, status.workflowID, 'The run was cancelled.').catch(() => undefined);
    }
  } catch (error) {
    debugLog(`watching cancels failed: ${(error as Error)?.name}`); // the database is restarting: look again next time
  }
}
