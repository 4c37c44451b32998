import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantText, type AgentMessage } from '@rxagent/core';
import { durableRuns, startWorker, type DurableRuns, type DurableWorker } from '@rxagent/durable';
import { startPostgres, type PostgresServer } from '@rxagent/testing';
import { startDashboard, type Dashboard } from './dashboard-server.js';
import { followDurableRuns } from './durable-follow.js';
import { durableRunLister } from './durable-run-list.js';
import { appendTools, linesOf, planModel, waitFor } from './durable-fixture.test.js';

// A real PostgreSQL, a real durable worker in this process (one per process: DBOS is a
// process singleton), runs started with the durable client as any other process would, and
// the dashboard showing them over HTTP: its buttons must reach the durable runs.
jest.setTimeout(120_000);

let pg: PostgresServer;
let worker: DurableWorker;
let runs: DurableRuns;
let dashboard: Dashboard;
let dir: string;
let file: string;

beforeAll(async () => {
  pg = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), 'rxagent-dashboard-durable-'));
  file = join(dir, 'lines.txt');
  worker = await startWorker({
    databaseUrl: pg.url,
    models: { plan: planModel({ lines: 3, approvalEvery: 2, latencyMs: 2 }), chat: planModel({ lines: 0 }) },
    tools: appendTools(file),
    pollIntervalMs: 50,
  });
  // The default database timeout (10 s): a short one would race PostgreSQL on a busy machine.
  runs = await durableRuns({ databaseUrl: pg.url, pollIntervalMs: 50 });
  dashboard = await startDashboard({ durable: runs, throttleMs: 10 });
});

afterAll(async () => {
  await dashboard?.close();
  await runs?.close();
  await worker?.stop();
  await pg?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const url = (path: string) => new URL(path, dashboard.url);
const post = (path: string, body: unknown) =>
  fetch(url(path), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function attach(runId: string): Promise<string> {
  const res = await post('/durable-runs', { runId });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const card = (id: string) => dashboard.registry.snapshot(id);
const stripTimes = (messages: readonly AgentMessage[]) =>
  messages.map((m) => {
    const { timestamp: _t, ...rest } = m;
    return rest;
  });

describe('durable runs in the dashboard', () => {
  it('shows a durable run live, and an approval from the dashboard reaches it', async () => {
    const runId = await runs.startRun({
      runId: 'approve-me',
      model: 'plan',
      tools: ['append_line', 'guarded_append'],
      prompt: 'Append three lines.',
    });
    const id = await attach(runId);
    expect(await attach(runId)).toBe(id); // the same card while it stays

    await waitFor(
      () => (card(id)?.pendingApprovals.length ?? 0) > 0,
      30_000,
      'the guarded call to wait for approval',
    );
    const waiting = card(id);
    expect(waiting).toMatchObject({
      label: 'durable approve-me',
      phase: 'tool-executing',
      pendingApprovals: [
        { toolCallId: 'call_2', toolName: 'guarded_append', fields: [{ name: 'line', value: 'line-2' }] },
      ],
    });
    expect(linesOf(file, runId).map((l) => l.split(' ')[2])).toEqual(['line-1']);
    // Only the call that waits can be decided.
    expect((await post(`/runs/${id}/approvals/call_9`, { approved: true })).status).toBe(409);

    const res = await post(`/runs/${id}/approvals/call_2`, { approved: true });
    expect(res.status).toBe(200);
    // A second decision from the page does not count: the first one went to the run.
    expect((await post(`/runs/${id}/approvals/call_2`, { approved: false })).status).toBe(409);

    const result = await runs.runResult(runId);
    await waitFor(() => card(id)?.terminal === true, 30_000, 'the card to end');
    expect(card(id)).toMatchObject({
      phase: 'done',
      step: 4,
      lastAnswer: 'Done: 3 lines appended.',
      tokens: { input: 406, output: 40 },
    });
    expect(linesOf(file, runId).map((l) => l.split(' ')[2])).toEqual(['line-1', 'line-2', 'line-3']);
    // The dashboard folded the same state the run's own result has.
    const folded = dashboard.registry.get(id)?.agent.state$.value;
    expect(stripTimes(folded?.messages ?? [])).toEqual(stripTimes(result.messages));
    const log = dashboard.registry
      .recentEvents()
      .filter((e) => e.runId === id)
      .map((e) => e.text);
    expect(log).toEqual(
      expect.arrayContaining(['approved guarded_append', '✓ guarded_append', 'stopped: completed']),
    );
  });

  it('a rejection from the dashboard reaches the model with its reason', async () => {
    const runId = await runs.startRun({
      runId: 'reject-me',
      model: 'plan',
      tools: ['append_line', 'guarded_append'],
      prompt: 'Append three lines.',
    });
    const id = await attach(runId);
    await waitFor(() => (card(id)?.pendingApprovals.length ?? 0) > 0, 30_000, 'the guarded call to wait');
    expect(
      (await post(`/runs/${id}/approvals/call_2`, { approved: false, reason: 'not that line' })).status,
    ).toBe(200);

    const result = await runs.runResult(runId);
    const toolResult = result.messages.find((m) => m.role === 'tool' && m.toolCallId === 'call_2');
    expect(JSON.stringify(toolResult)).toContain('not that line');
    await waitFor(() => card(id)?.terminal === true, 30_000, 'the card to end');
    expect(linesOf(file, runId).map((l) => l.split(' ')[2])).not.toContain('line-2');
    expect(
      dashboard.registry
        .recentEvents()
        .some((e) => e.runId === id && e.text === 'rejected guarded_append: not that line'),
    ).toBe(true);
  });

  it('Abort cancels the durable run', async () => {
    const runId = await runs.startRun({
      runId: 'cancel-me',
      model: 'plan',
      tools: ['append_line', 'guarded_append'],
      prompt: 'Append three lines.',
    });
    const id = await attach(runId);
    await waitFor(() => (card(id)?.pendingApprovals.length ?? 0) > 0, 30_000, 'the guarded call to wait');
    const res = await post(`/runs/${id}/abort`, {});
    expect(await res.json()).toEqual({ ok: true, wasRunning: true });
    await waitFor(() => card(id)?.terminal === true, 30_000, 'the card to end');
    expect(card(id)?.phase).toBe('cancelled');
    expect(card(id)?.error).toBeUndefined();
    expect(await runs.status(runId)).toBe('CANCELLED');
    expect(card(id)?.pendingApprovals).toEqual([]);
    expect(linesOf(file, runId).map((l) => l.split(' ')[2])).toEqual(['line-1']);
  });

  it('a run attached after it ended shows its whole run', async () => {
    const runId = await runs.startRun({ runId: 'late', model: 'chat', prompt: 'Say you are done.' });
    const result = await runs.runResult(runId);
    const id = await attach(runId);
    await waitFor(() => card(id)?.terminal === true, 30_000, 'the card to end');
    expect(card(id)).toMatchObject({
      phase: 'done',
      step: 1,
      prompt: 'Say you are done.',
      lastAnswer: 'Done: 0 lines appended.',
    });
    expect(assistantText(result.messages.at(-1))).toBe('Done: 0 lines appended.');
  });

  it('refuses unknown runs and bad bodies with what to send', async () => {
    const unknown = await post('/durable-runs', { runId: 'no-such-run' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: 'No durable run "no-such-run": use the id startRun returned.',
    });
    const bad = await post('/durable-runs', { runId: 42 });
    expect(bad.status).toBe(400);
    expect((await post('/durable-runs', {})).status).toBe(400);
    expect((await fetch(url('/durable-runs'))).status).toBe(405);

    const plain = await startDashboard();
    try {
      const res = await fetch(new URL('/durable-runs', plain.url), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ runId: 'approve-me' }),
      });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: string }).error).toMatch(/--durable <databaseUrl>/);
    } finally {
      await plain.close();
    }
  });

  it('fails closed when the database is down: the approval is not counted, and can be given once it is back', async () => {
    const runId = await runs.startRun({
      runId: 'outage',
      model: 'plan',
      tools: ['append_line', 'guarded_append'],
      prompt: 'Append three lines.',
    });
    const id = await attach(runId);
    await waitFor(() => (card(id)?.pendingApprovals.length ?? 0) > 0, 30_000, 'the guarded call to wait');
    await pg.halt();
    try {
      const res = await post(`/runs/${id}/approvals/call_2`, { approved: true });
      expect(res.status).toBe(503);
      expect(((await res.json()) as { error: string }).error).toMatch(
        /^Could not decide run-\d+: .*Try again\.$/,
      );
    } finally {
      await pg.restart();
    }
    expect(card(id)?.pendingApprovals.map((a) => a.toolCallId)).toEqual(['call_2']);
    expect(linesOf(file, runId).map((l) => l.split(' ')[2])).toEqual(['line-1']);
    expect((await post(`/runs/${id}/approvals/call_2`, { approved: true })).status).toBe(200);
    await waitFor(() => card(id)?.terminal === true, 60_000, 'the card to end');
    expect(card(id)?.lastAnswer).toBe('Done: 3 lines appended.');
  });

  it('follows durable runs: each new or active run gets a card once, older finished ones do not', async () => {
    const lister = durableRunLister(runs);
    const before = new Set(dashboard.registry.entries().map((e) => e.id));
    const finished = await runs.startRun({
      runId: 'finished-before',
      model: 'chat',
      prompt: 'Say you are done.',
    });
    await runs.runResult(finished);
    const waiting = await runs.startRun({
      runId: 'waiting-before',
      model: 'plan',
      tools: ['append_line', 'guarded_append'],
      prompt: 'Append three lines.',
    });
    await waitFor(() => linesOf(file, waiting).length === 1, 30_000, 'the first line of the waiting run');
    const listings = await lister.list();
    expect(listings.map((l) => l.runId)).toEqual(expect.arrayContaining([finished, waiting, 'approve-me']));

    // Each listing counted, so "a few more listings" is waited for, not guessed from a delay.
    let listed = 0;
    const list = () => lister.list().then((found) => ((listed += 1), found));
    const moreListings = async (count: number) => {
      const target = listed + count;
      await waitFor(() => listed >= target, 30_000, `${count} more listings`);
    };
    const following = followDurableRuns(dashboard, list, { intervalMs: 100 });
    try {
      const labels = () =>
        dashboard.registry
          .entries()
          .filter((e) => !before.has(e.id))
          .map((e) => e.label);
      await waitFor(
        () => labels().includes('durable waiting-before'),
        30_000,
        'the active run to be followed',
      );
      const started = await runs.startRun({
        runId: 'started-after',
        model: 'chat',
        prompt: 'Say you are done.',
      });
      await waitFor(() => labels().includes(`durable ${started}`), 30_000, 'the new run to be followed');
      await moreListings(3);
      expect(labels().sort()).toEqual(['durable started-after', 'durable waiting-before']);

      // A card removed from the page is not brought back by the next listing.
      const id = dashboard.registry.entries().find((e) => e.label === 'durable started-after')?.id as string;
      await waitFor(() => card(id)?.terminal === true, 30_000, 'the followed run to end');
      expect(dashboard.registry.remove(id)).toBe(true);
      await moreListings(3);
      expect(labels()).toEqual(['durable waiting-before']);
    } finally {
      following.unsubscribe();
      // Approved to its end rather than cancelled: a cancelled run waiting in DBOS.recv only
      // notices at its next poll (10 s), which would keep jest from exiting after the tests.
      await waitFor(() => linesOf(file, waiting).length === 1, 30_000, 'the waiting run');
      await runs.approve(waiting, 'call_2');
      await runs.runResult(waiting);
    }
  });
});
