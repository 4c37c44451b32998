import { Subject } from 'rxjs';
import type { AgentEvent } from '@rxagent/core';
import { startDashboard, type Dashboard } from './dashboard-server.js';

// A run known only by its event stream (it runs elsewhere): its state is folded here, and its
// buttons reach it only through the controls it was registered with.

let dashboard: Dashboard;

beforeAll(async () => {
  dashboard = await startDashboard({ throttleMs: 0 });
});

afterAll(() => dashboard.close());

const post = (path: string, body: unknown) =>
  fetch(new URL(path, dashboard.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const waitingFor = (toolCallId: string): AgentEvent[] => [
  { type: 'agent-start', messages: [] } as unknown as AgentEvent,
  { type: 'turn-start', step: 1 },
  { type: 'approval-request', toolCallId, toolName: 'deploy', args: { env: 'prod' } },
];

describe('a watched run', () => {
  it('shows the folded state, and without controls refuses approvals and aborts (409)', async () => {
    const events = new Subject<AgentEvent>();
    const id = dashboard.registry.watch(events, 'elsewhere');
    for (const event of waitingFor('call_1')) events.next(event);
    expect(dashboard.registry.snapshot(id)).toMatchObject({
      label: 'elsewhere',
      step: 1,
      pendingApprovals: [{ toolCallId: 'call_1', toolName: 'deploy' }],
    });

    const approve = await post(`/runs/${id}/approvals/call_1`, { approved: true });
    expect(approve.status).toBe(409);
    expect(await approve.json()).toEqual({
      error: 'This run is only watched here: decide its approvals where it runs.',
    });
    expect((await post(`/runs/${id}/abort`, {})).status).toBe(409);
    expect(dashboard.registry.snapshot(id)?.pendingApprovals).toHaveLength(1);

    // Its stream ending with an error shows the error; nothing is thrown at the dashboard.
    events.error(new Error('worker lost'));
    expect(dashboard.registry.snapshot(id)).toMatchObject({ phase: 'error', error: 'Error: worker lost' });
  });

  it('decides through its controls; a failed decision is reported (503) and can be retried', async () => {
    const events = new Subject<AgentEvent>();
    const decisions: string[] = [];
    let reachable = false;
    const id = dashboard.registry.watch(events, 'elsewhere', {
      approve: (toolCallId) => {
        if (!reachable) throw new Error('connection refused.');
        decisions.push(`approve ${toolCallId}`);
      },
      cancel: () => void decisions.push('cancel'),
    });
    for (const event of waitingFor('call_7')) events.next(event);

    const failed = await post(`/runs/${id}/approvals/call_7`, { approved: true });
    expect(failed.status).toBe(503);
    expect(await failed.json()).toEqual({ error: `Could not decide ${id}: connection refused. Try again.` });
    reachable = true;
    expect((await post(`/runs/${id}/approvals/call_7`, { approved: true })).status).toBe(200);
    expect((await post(`/runs/${id}/approvals/call_7`, { approved: true })).status).toBe(409);
    // Decided already (and there is no reject control): refused, sent nowhere.
    expect((await post(`/runs/${id}/approvals/call_7`, { approved: false })).status).toBe(409);
    expect((await post(`/runs/${id}/abort`, {})).status).toBe(200);
    expect(decisions).toEqual(['approve call_7', 'cancel']);
  });
});
