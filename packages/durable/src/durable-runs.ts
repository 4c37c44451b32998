import { DBOSClient } from '@dbos-inc/dbos-sdk';
import { toResult, type RunResult } from '@rxagent/core/streams';
import type { AgentEvent, UserInput } from '@rxagent/core';
import { randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import { lastValueFrom, type Observable } from 'rxjs';
import { boundedCalls } from './bounded-call.js';
import { storeDecision, type ApprovalMessage } from './durable-approver.js';
import { DurableUsageError } from './durable-errors.js';
import { EventListener } from './event-listener.js';
import { watchLog } from './watch-log.js';
import { RUN_WORKFLOW } from './run-workflow.js';
import { checkRunSpec, type DurableRunSpec, type RegisteredNames } from './run-spec.js';
import type { RegistryNames } from './registry.js';
import { sendRunMessage, type RunMessageKind } from './run-messages.js';
import { ensureSchema, SCHEMA } from './schema.js';
import { APP_NAME, RUN_QUEUE } from './worker.js';
import { systemDatabaseUrl } from './system-database-url.js';

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
  /**
   * Approves a call waiting in a run (its `approval-request` is in the run's log, its
   * `approval-end` not yet); the first decision for a call wins. Resolves false, and sends
   * nothing, when the call is not waiting: a decision never waits for a call to come.
   */
  approve(runId: string, toolCallId: string): Promise<boolean>;
  /** Rejects a call waiting in a run (the model reads `reason`); false when it is not waiting. */
  reject(runId: string, toolCallId: string, reason?: string): Promise<boolean>;
  /**
   * Sends a steering message to a run: the run takes it at the end of its current step and
   * reads it before its next model call (`'after-turn'`). False, sending nothing, when the run
   * has ended.
   */
  steer(runId: string, message: UserInput): Promise<boolean>;
  /**
   * Sends a follow-up to a run: delivered when the run would otherwise stop, so it goes on.
   * False, sending nothing, when the run has ended.
   */
  followUp(runId: string, message: UserInput): Promise<boolean>;
  /**
   * Cancels a run: a running one ends with `user-requested`, a queued one never starts; its
   * durable children (`durableSubagent`) are cancelled with it.
   */
  cancel(runId: string): Promise<void>;
  /** The workflow's status (`ENQUEUED`, `PENDING`, `SUCCESS`, `ERROR`, `CANCELLED`…), or undefined. */
  status(runId: string): Promise<string | undefined>;
  /** The newest runs first (default 50), with their status and creation time. */
  listRuns(options?: { limit?: number }): Promise<DurableRunInfo[]>;
  close(): Promise<void>;
}

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

/**
 * Opens a client of durable runs on the workers' database. Any number of processes may hold
 * one; none of them needs the models or tools.
 *
 * @example
 * const runs = await durableRuns({ databaseUrl });
 * const id = await runs.startRun({ runId: 'ticket-1234', model: 'main', prompt: 'Triage ticket 1234.' });
 * if (!(await runs.approve(id, 'call_1'))) console.log('call_1 is not waiting for a decision');
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

  const bounded = boundedCalls(timeoutMs, () => closed);

  await bounded('durableRuns', () => ensureSchema(pool));
  // DBOS's pool is ours: an idle connection it still holds when PostgreSQL goes away (after
  // close, DBOS's own pool logs it on stderr) is dropped quietly, like the rest of our pool's.
  const dbosPool = new Pool({
    connectionString: systemDatabaseUrl(options.databaseUrl),
    max: 10,
    connectionTimeoutMillis: timeoutMs,
  });
  dbosPool.on('error', () => undefined);
  const dbos = await bounded('durableRuns', () =>
    DBOSClient.create({
      systemDatabaseUrl: systemDatabaseUrl(options.databaseUrl),
      systemDatabasePool: dbosPool,
      applicationName: APP_NAME,
    }),
  );
  const listener = new EventListener(options.databaseUrl);

  const registeredNames = async (): Promise<RegisteredNames> => {
    const { rows } = await pool.query<{ models: string[]; tools: string[]; names: Partial<RegistryNames> }>(
      `SELECT models, tools, names FROM ${SCHEMA}.workers`,
    );
    const named: Partial<Record<keyof RegistryNames, Set<string>>> = {};
    for (const row of rows) {
      for (const [kind, list] of Object.entries(row.names ?? {}) as [keyof RegistryNames, string[]][]) {
        const set = (named[kind] ??= new Set());
        for (const name of list) set.add(name);
      }
    }
    return {
      models: new Set(rows.flatMap((r) => r.models)),
      tools: new Set(rows.flatMap((r) => r.tools)),
      named,
    };
  };
  const running = async (runId: string) => {
    const status = (await dbos.getWorkflow(runId))?.status;
    return status === 'ENQUEUED' || status === 'PENDING';
  };
  const message = (runId: string, kind: RunMessageKind, input: UserInput) =>
    bounded(kind === 'steer' ? 'steer' : 'followUp', async () =>
      sendRunMessage(pool, runId, kind, input, await running(runId)),
    );

  const status = (runId: string) => bounded('status', async () => (await dbos.getWorkflow(runId))?.status);

  const watchRun = (runId: string): Observable<AgentEvent> =>
    watchLog({ pool, listener, pollMs, statusOf: (id) => dbos.getWorkflow(id) }, runId);

  const decide = (runId: string, toolCallId: string, message: ApprovalMessage) =>
    bounded('approve', () => storeDecision(pool, runId, toolCallId, message));

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
    steer: (runId, input) => message(runId, 'steer', input),
    followUp: (runId, input) => message(runId, 'follow-up', input),
    cancel: (runId) =>
      bounded('cancel', async () => {
        await dbos.cancelWorkflow(runId);
        // Its durable children (durableSubagent: `<run id>/<call id>`), and theirs.
        const children = await dbos.listWorkflows({
          workflow_id_prefix: `${runId}/`,
          status: ['ENQUEUED', 'PENDING'],
        });
        for (const child of children) await dbos.cancelWorkflow(child.workflowID);
      }),
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
      await dbosPool.end().catch(() => undefined);
      await pool.end().catch(() => undefined);
    },
  };
}
