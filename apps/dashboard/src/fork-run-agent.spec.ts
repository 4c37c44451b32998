import { filter, firstValueFrom } from 'rxjs';
import { isTerminal, type AgentState } from '@rxagent/core';
import type { Dashboard } from './dashboard-server.js';
import { post as postTo, scriptedDashboard } from './route-kit.test.js';

// A fork's buttons reach it like an Agent's: its approvals wait for the page (nothing decides
// them by default), Approve / Reject over HTTP decide them, Abort cancels it.

let dashboard: Dashboard;
beforeEach(async () => {
  dashboard = await scriptedDashboard();
});
afterEach(() => dashboard.close());

const post = (path: string, body: unknown) => postTo(dashboard, path, body);

function until(id: string, test: (s: AgentState) => boolean): Promise<AgentState> {
  const entry = dashboard.registry.get(id);
  if (!entry) throw new Error(`no run ${id}`);
  return firstValueFrom(entry.agent.state$.pipe(filter(test)));
}
const waiting = (s: AgentState) => s.pendingApprovals.length > 0;

/** A `change` run (read, write_file behind an approval, tests, summary), approved to its end. */
async function finishedChange(): Promise<{ id: string; readId: string }> {
  const id = dashboard.startRun(undefined, { scenario: 'change' });
  const asked = await until(id, waiting);
  const callId = asked.pendingApprovals[0]?.toolCallId ?? '';
  expect((await post(`/runs/${id}/approvals/${callId}`, { approved: true })).status).toBe(200);
  const done = await until(id, (s) => isTerminal(s.phase));
  expect(done.stopReason).toBe('completed');
  const read = done.messages.find((m) => m.role === 'tool' && m.toolName === 'read_file');
  return { id, readId: read?.role === 'tool' ? read.toolCallId : '' };
}

async function forkAtRead(id: string, readId: string): Promise<string> {
  const res = await post(`/runs/${id}/fork`, {
    at: { toolCallId: readId },
    text: 'export const retries = { max: 4 };',
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe('a fork as a dashboard run', () => {
  it('waits for its approval, which the page decides; a rejection reaches its model', async () => {
    const { id, readId } = await finishedChange();
    const approved = await forkAtRead(id, readId);
    const asked = await until(approved, waiting);
    expect(asked.pendingApprovals.map((a) => a.toolName)).toEqual(['write_file']);
    expect(asked.phase).not.toBe('done');
    const callId = asked.pendingApprovals[0]?.toolCallId ?? '';
    expect((await post(`/runs/${approved}/approvals/${callId}`, { approved: true })).status).toBe(200);
    // A second decision finds nothing waiting.
    expect((await post(`/runs/${approved}/approvals/${callId}`, { approved: true })).status).toBe(409);
    const done = await until(approved, (s) => isTerminal(s.phase));
    expect(done.stopReason).toBe('completed');
    expect(done.messages.some((m) => m.role === 'tool' && m.toolName === 'run_tests')).toBe(true);

    const rejected = await forkAtRead(id, readId);
    const again = await until(rejected, waiting);
    const rejectId = again.pendingApprovals[0]?.toolCallId ?? '';
    const reason = 'not in this sprint';
    expect((await post(`/runs/${rejected}/approvals/${rejectId}`, { approved: false, reason })).status).toBe(
      200,
    );
    const stopped = await until(rejected, (s) => isTerminal(s.phase));
    expect(stopped.stopReason).toBe('rejected');
    const result = stopped.messages.find((m) => m.role === 'tool' && m.toolCallId === rejectId);
    expect(JSON.stringify(result)).toContain(reason);
  });

  it('is aborted by Abort, and removed once it has ended', async () => {
    const { id, readId } = await finishedChange();
    const fork = await forkAtRead(id, readId);
    await until(fork, waiting);
    expect(await (await post(`/runs/${fork}/abort`, {})).json()).toEqual({ ok: true, wasRunning: true });
    const ended = await until(fork, (s) => isTerminal(s.phase));
    expect(ended.phase).toBe('cancelled');
    const removed = await fetch(new URL(`/runs/${fork}`, dashboard.url), { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(dashboard.registry.get(fork)).toBeUndefined();
    expect((await fetch(new URL(`/compare.json?a=${id}&b=${fork}`, dashboard.url))).status).toBe(404);
  });
});
