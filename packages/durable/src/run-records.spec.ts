import { durableRuns, startWorker, type DurableRuns, type DurableWorker } from '@rxagent/durable';
import { startPostgres, type PostgresServer } from '@rxagent/testing';
import type { ModelEvent } from '@rxagent/core';
import { Pool } from 'pg';
import { Observable } from 'rxjs';
import { EventLogWriter } from './event-log.js';
import { RunControl } from './run-control.js';
import { RunRecords } from './run-records.js';
import { DBOS_SCHEMA, SCHEMA } from './schema.js';

// A model call's record is stored by one statement that checks the run's DBOS owner and status:
// real PostgreSQL, real DBOS, a run held in its first model call while the statement is tried.

jest.setTimeout(60_000);

let pg: PostgresServer;
let worker: DurableWorker;
let runs: DurableRuns;
let pool: Pool;
let called: () => void = () => undefined;

beforeAll(async () => {
  pg = await startPostgres();
  worker = await startWorker({
    databaseUrl: pg.url,
    workerId: 'records',
    models: {
      // Never answers: the run stays in its first model call until it is stopped.
      held: {
        provider: 'scripted',
        modelId: 'held',
        stream: () => new Observable<ModelEvent>(() => called()),
      },
    },
  });
  runs = await durableRuns({ databaseUrl: pg.url, pollIntervalMs: 50 });
  pool = new Pool({ connectionString: pg.url, max: 2 });
});

afterAll(async () => {
  await pool?.end();
  await runs?.close();
  await worker?.stop();
  await pg?.stop();
});

/** Starts a run and resolves once its model call is in flight, with its DBOS owner token. */
async function heldRun(runId: string): Promise<{ records: RunRecords; owner: string }> {
  const inCall = new Promise<void>((resolve) => (called = resolve));
  await runs.startRun({ runId, model: 'held', prompt: 'Wait.' });
  await inCall;
  const { rows } = await pool.query<{ owner_xid: string }>(
    `SELECT owner_xid FROM "${DBOS_SCHEMA}".workflow_status WHERE workflow_uuid = $1`,
    [runId],
  );
  const control = new RunControl(runId, new EventLogWriter(pool, runId));
  return { records: new RunRecords(control, pool), owner: rows[0]!.owner_xid };
}

const storedKeys = async (runId: string) =>
  (
    await pool.query<{ key: string }>(`SELECT key FROM ${SCHEMA}.records WHERE run_id = $1 ORDER BY key`, [
      runId,
    ])
  ).rows.map((r) => r.key);

it('stores a record for the execution that owns the run, the first value winning', async () => {
  const { records, owner } = await heldRun('owned');
  expect(owner).toEqual(expect.any(String));
  await expect(records.storeOwned('probe', { n: 1 }, owner)).resolves.toEqual({
    stored: true,
    value: { n: 1 },
  });
  await expect(records.storeOwned('probe', { n: 2 }, owner)).resolves.toEqual({
    stored: true,
    value: { n: 1 },
  });
  expect(records.value('probe')).toEqual({ v: { n: 1 } });
  await runs.cancel('owned');
});

it('stores nothing for an execution that lost the run (another owner token)', async () => {
  const { records } = await heldRun('lost');
  await expect(records.storeOwned('probe', { n: 1 }, 'another-execution')).resolves.toEqual({
    stored: false,
    status: 'superseded',
  });
  expect(await storedKeys('lost')).not.toContain('probe');
  expect(records.value('probe')).toBeUndefined();
  await runs.cancel('lost');
});

it('stores nothing for a cancelled run, even from its owner', async () => {
  const { records, owner } = await heldRun('cancelled');
  await runs.cancel('cancelled');
  await expect(records.storeOwned('probe', { n: 1 }, owner)).resolves.toEqual({
    stored: false,
    status: 'cancelled',
  });
  expect(await storedKeys('cancelled')).not.toContain('probe');
});

it('reads what a run recorded once, when an execution starts', async () => {
  const { records, owner } = await heldRun('loaded');
  await records.storeOwned('model:0', { ok: true }, owner);
  await records.storeToolResult('call_1', { content: [{ type: 'text', text: 'ok' }], isError: false });
  const later = new RunRecords(new RunControl('loaded', new EventLogWriter(pool, 'loaded')), pool);
  expect(later.value('model:0')).toBeUndefined();
  await later.load();
  expect(later.value('model:0')).toEqual({ v: { ok: true } });
  expect(later.tool('call_1')).toEqual({
    began: false,
    result: { content: [{ type: 'text', text: 'ok' }], isError: false },
  });
  await runs.cancel('loaded');
});
