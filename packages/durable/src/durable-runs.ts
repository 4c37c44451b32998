import { DBOSClient } from '@dbos-inc/dbos-sdk';
import { toResult, type AgentEvent, type RunResult, type SerializedError } from '@rxagent/core';
import { reviveProviderError } from '@rxagent/core/provider';
import { randomUUID } from 'node:crypto';
import { Client, Pool } from 'pg';
import { lastValueFrom, Observable } from 'rxjs';
import { approvalTopic, type ApprovalMessage } from './durable-approver.js';
import { DurableRunEndedError, DurableUnavailableError, DurableUsageError } from './durable-errors.js';
import { readLog, type LogBody } from './event-log.js';
import { RUN_WORKFLOW } from './run-workflow.js';
import { checkRunSpec, type DurableRunSpec } from './run-spec.js';
import { ensureSchema, EVENTS_CHANNEL, SCHEMA } from './schema.js';
import { APP_NAME, RUN_QUEUE } from './worker.js';

/**
 * Options of `durableRuns`.
 *
 * @example
 * const runs = await durableRuns({ databaseUrl: process.env.DATABASE_URL!, timeoutMs: 5_000 });
 */
export interface DurableRunsOptions {
  /** The PostgreSQL database the workers use. */
  databaseUrl: string;
  /** How long a call may wait for the database before `DurableUnavailableError` (default 10 000 ms). */
  timeoutMs?: number;
  /** How often a watcher looks for new events when no notification came (default 500 ms). */
  pollIntervalMs?: number;
}

/**
 * Durable runs, from any process: start, watch, decide approvals, cancel, read results.
 *
 * @example
 * const runs = await durableRuns({ databaseUrl });
 * const id = await runs.startRun({ model: 'main', tools: ['append_line'], prompt: 'Log "deployed".' });
 * withState(runs.watchRun(id)).subscribe(({ state }) => render(state));
 * const result = await runs.runResult(id);
 */
export interface DurableRuns {
  /**
   * Checks the spec against what the workers registered and enqueues the run; returns its id.
   * Idempotent for a given `spec.runId`. Fails with `DurableRunSpecError` (unknown model or
   * tool, bad numbers) or `DurableUnavailableError` (database down: retry with the same id).
   */
  startRun(spec: DurableRunSpec): Promise<string>;
  /**
   * The run's events as the run produced them, from its start (a late watcher catches up),
   * then live, completing after `agent-end`. A run that failed errors with its typed error; a
   * run cancelled before it started errors with `DurableRunEndedError`. Deltas may come
   * coalesced after a crash; every other event comes once and in order.
   */
  watchRun(runId: string): Observable<AgentEvent>;
  /** The run's result once it ended (`toResult` of `watchRun`). */
  runResult(runId: string): Promise<RunResult>;
  /** Approves a call waiting in a run; the first decision for a call wins. */
  approve(runId: string, toolCallId: string): Promise<void>;
  /** Rejects a call waiting in a run; the model reads `reason`. */
  reject(runId: string, toolCallId: string, reason?: string): Promise<void>;
  /** Cancels a run: a running one ends with `user-requested`, a queued one never starts. */
  cancel(runId: string): Promise<void>;
  /** The workflow's status (`ENQUEUED`, `PENDING`, `SUCCESS`, `ERROR`, `CANCELLED`…), or undefined. */
  status(runId: string): Promise<string | undefined>;
  /** The newest runs first (default 50), with their status and creation time. */
  listRuns(options?: { limit?: number }): Promise<DurableRunInfo[]>;
  close(): Promise<void>;
}

/** How long a watcher waits for the end of a run cancelled while it ran (its worker logs it). */
const CANCEL_GRACE_MS = 5000;

/**
 * One durable run as `listRuns` gives it.
 *
 * @example
 * const info: DurableRunInfo = { runId: 'ticket-1234', status: 'PENDING', createdAt: 1764090000000 };
 */
export interface DurableRunInfo {
  runId: string;
  /** The workflow's status: `ENQUEUED`, `PENDING`, `SUCCESS`, `ERROR`, `CANCELLED`… */
  status: string;
  /** Epoch ms. */
  createdAt: number;
}

const TERMINAL = new Set(['SUCCESS', 'ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED']);

/**
 * Opens a client of durable runs on the workers' database. Any number of processes may hold
 * one; none of them needs the models or tools.
 *
 * @example
 * const runs = await durableRuns({ databaseUrl });
 * const id = await runs.startRun({ runId: 'ticket-1234', model: 'main', prompt: 'Triage ticket 1234.' });
 * await runs.approve(id, 'call_1');
 */
export async function durableRuns(options: DurableRunsOptions): Promise<DurableRuns> {
  if (typeof options?.databaseUrl !== 'string' || options.databaseUrl === '') {
    throw new DurableUsageError('durableRuns needs databaseUrl: the PostgreSQL URL the workers use.');
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  const pollMs = options.pollIntervalMs ?? 500;
  if (!(timeoutMs > 0) || !(pollMs > 0)) {
    throw new DurableUsageError(
      'durableRuns: timeoutMs and pollIntervalMs must be positive numbers of milliseconds.',
    );
  }
  const pool = new Pool({
    connectionString: options.databaseUrl,
    max: 4,
    connectionTimeoutMillis: timeoutMs,
  });
  pool.on('error', () => undefined);
  let closed = false;

  const bounded = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    if (closed) throw new DurableUsageError(`${what}: this client was closed.`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new DurableUnavailableError(
              `${what}: PostgreSQL did not answer within ${timeoutMs} ms. Nothing was lost; retry ` +
                '(startRun with the same runId is idempotent).',
            ),
          ),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([work(), timeout]);
    } catch (error) {
      if (DurableUnavailableError.isInstance(error) || (error as Error)?.name?.startsWith('Durable'))
        throw error;
      if (isConnectionError(error)) {
        throw new DurableUnavailableError(
          `${what}: PostgreSQL is unreachable (${(error as Error).message}). Nothing was lost; retry when it is back.`,
          { cause: error },
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };

  await bounded('durableRuns', () => ensureSchema(pool));
  const dbos = await bounded('durableRuns', () =>
    DBOSClient.create({ systemDatabaseUrl: options.databaseUrl, applicationName: APP_NAME }),
  );
  const listener = new EventListener(options.databaseUrl);

  const registeredNames = async () => {
    const { rows } = await pool.query<{ models: string[]; tools: string[] }>(
      `SELECT models, tools FROM ${SCHEMA}.workers`,
    );
    return { models: new Set(rows.flatMap((r) => r.models)), tools: new Set(rows.flatMap((r) => r.tools)) };
  };

  const status = (runId: string) => bounded('status', async () => (await dbos.getWorkflow(runId))?.status);

  const watchRun = (runId: string): Observable<AgentEvent> =>
    new Observable<AgentEvent>((subscriber) => {
      let after = 0;
      let stopped = false;
      let wake: (() => void) | undefined;
      const unlisten = listener.on(runId, () => wake?.());
      const sleep = () =>
        new Promise<void>((resolve) => {
          listener.reconnect();
          const timer = setTimeout(resolve, pollMs);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      const emit = (body: LogBody): boolean => {
        if (body.type === 'run-error') {
          subscriber.error(reviveRunError(body.error));
          return true;
        }
        subscriber.next(body);
        if (body.type === 'agent-end') {
          subscriber.complete();
          return true;
        }
        return false;
      };
      void (async () => {
        let idle = 0;
        let endedSince: number | undefined;
        while (!stopped) {
          let rows;
          try {
            rows = await readLog(pool, runId, after);
          } catch {
            await sleep(); // the database is restarting: keep the place and read again
            continue;
          }
          for (const row of rows) {
            after = row.seq;
            if (stopped || emit(row.body)) return;
          }
          if (rows.length > 0) {
            idle = 0;
            continue;
          }
          // Nothing new: a run that ended without an agent-end (cancelled before it ran, failed
          // outside the loop) would leave the watcher waiting forever. A cancelled run that had
          // started gets time for its worker to see the cancel and log the end.
          if (++idle % 4 === 0) {
            const state = await dbos.getWorkflow(runId).catch(() => undefined);
            const status = String(state?.status);
            if (state && TERMINAL.has(status)) {
              endedSince ??= Date.now();
              const started = after > 0;
              if (!started || status !== 'CANCELLED' || Date.now() - endedSince > CANCEL_GRACE_MS) {
                const last = await readLog(pool, runId, after).catch(() => []);
                for (const row of last) if (emit(row.body)) return;
                subscriber.error(
                  new DurableRunEndedError(
                    `Durable run "${runId}" ended as ${status} without an agent-end` +
                      (status === 'CANCELLED' && !started ? ' (it was cancelled before it started).' : '.'),
                    status,
                  ),
                );
                return;
              }
            }
          }
          await sleep();
        }
      })();
      return () => {
        stopped = true;
        unlisten();
        wake?.();
      };
    });

  const decide = (runId: string, toolCallId: string, message: ApprovalMessage) =>
    bounded('approve', () =>
      dbos.send(runId, message, approvalTopic(toolCallId), `${runId}:${toolCallId}:decision`),
    );

  return {
    async startRun(spec) {
      const names = await bounded('startRun', registeredNames);
      checkRunSpec(spec, names);
      const runId = spec.runId ?? randomUUID();
      await bounded('startRun', () =>
        dbos.enqueue(
          { workflowName: RUN_WORKFLOW, queueName: RUN_QUEUE, workflowID: runId },
          { ...spec, runId },
        ),
      );
      return runId;
    },
    watchRun,
    runResult: (runId) => lastValueFrom(watchRun(runId).pipe(toResult())),
    approve: (runId, toolCallId) => decide(runId, toolCallId, { approved: true }),
    reject: (runId, toolCallId, reason) =>
      decide(runId, toolCallId, { approved: false, ...(reason !== undefined ? { reason } : {}) }),
    cancel: (runId) => bounded('cancel', () => dbos.cancelWorkflow(runId)),
    status,
    listRuns: (listOptions = {}) =>
      bounded('listRuns', async () =>
        (
          await dbos.listWorkflows({
            workflowName: RUN_WORKFLOW,
            sortDesc: true,
            limit: listOptions.limit ?? 50,
          })
        ).map((w) => ({ runId: w.workflowID, status: String(w.status), createdAt: Number(w.createdAt) })),
      ),
    async close() {
      if (closed) return;
      closed = true;
      await listener.close();
      await dbos.destroy().catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
}

function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const message = String((error as Error | null)?.message ?? '');
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '08006', '08001'].includes(
      String(code),
    ) || /connect|terminat|timeout/i.test(message)
  );
}

/** A run's stored error as a typed error: provider errors keep their class, others become `DurableRunEndedError`. */
function reviveRunError(error: SerializedError): Error {
  if (error.retryable !== undefined) return reviveProviderError(error);
  return new DurableRunEndedError(`The durable run failed: ${error.name}: ${error.message}`, 'ERROR');
}

/**
 * One LISTEN connection per client for event-log notifications; it reconnects after a database
 * restart (watchers poll meanwhile, so nothing is missed).
 */
class EventListener {
  private readonly handlers = new Map<string, Set<() => void>>();
  private client: Client | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly url: string) {}

  on(runId: string, handler: () => void): () => void {
    let set = this.handlers.get(runId);
    if (!set) this.handlers.set(runId, (set = new Set()));
    set.add(handler);
    void this.ensure();
    return () => {
      set.delete(handler);
      if (set.size === 0) this.handlers.delete(runId);
    };
  }

  /** Connects again if the connection was lost (a database restart). */
  reconnect(): void {
    if (this.handlers.size > 0) void this.ensure();
  }

  private ensure(): Promise<void> {
    if (this.client || this.connecting || this.closed) return this.connecting ?? Promise.resolve();
    this.connecting = (async () => {
      const client = new Client({ connectionString: this.url });
      client.on('error', () => {
        if (this.client === client) this.client = undefined;
        client.end().catch(() => undefined);
      });
      client.on('notification', (n) => {
        for (const handler of this.handlers.get(n.payload ?? '') ?? []) handler();
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${EVENTS_CHANNEL}`);
        if (this.closed) await client.end();
        else this.client = client;
      } catch {
        await client.end().catch(() => undefined);
      }
    })().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.connecting;
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }
}
