import { request } from 'node:http';
import { filter, firstValueFrom } from 'rxjs';
import { Agent, isTerminal, type AgentMessage, type AgentState } from '@rxagent/core';
import { diffRuns } from '@rxagent/replay';
import { scriptedModel, textTurn } from '@rxagent/testing';
import { startDashboard, type Dashboard } from './dashboard-server.js';
import type { ForkView } from './fork-view.js';
import type { RunSnapshot } from './run-snapshot.js';
import { scriptedRunFactory } from './scripted-runs.js';
import { FAST, post as postTo, scriptedDashboard } from './route-kit.test.js';

let dashboard: Dashboard;

beforeEach(async () => {
  dashboard = await scriptedDashboard();
});

afterEach(() => dashboard.close());

const post = (path: string, body: unknown, headers?: Record<string, string>) =>
  postTo(dashboard, path, body, headers);

/** The run's state once it has ended (at once when it has). */
function ended(id: string): Promise<AgentState> {
  const entry = dashboard.registry.get(id);
  if (!entry) throw new Error(`no run ${id}`);
  return firstValueFrom(entry.agent.state$.pipe(filter((s) => isTerminal(s.phase))));
}

/** A finished scripted `research` run: search_docs, two read_file calls, an answer. */
async function finishedResearch(): Promise<{ id: string; searchId: string; state: AgentState }> {
  const id = dashboard.startRun(undefined, { scenario: 'research' });
  const state = await ended(id);
  expect(state.phase).toBe('done');
  const search = state.messages.find((m) => m.role === 'tool' && m.toolName === 'search_docs');
  if (search?.role !== 'tool') throw new Error('no search_docs result');
  return { id, searchId: search.toolCallId, state };
}

function textOf(m: AgentMessage | undefined): string | undefined {
  if (!m || m.role === 'custom') return undefined;
  if (typeof m.content === 'string') return m.content;
  return m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

describe('POST /runs/:id/fork', () => {
  it("forks a finished run at a tool result with the edited text: the fork's transcript has it, its card names the parent", async () => {
    const { id, searchId, state: parent } = await finishedResearch();
    const edited = '0 matches for "retry backoff": <script>alert(1)</script>';
    const res = await post(`/runs/${id}/fork`, { at: { toolCallId: searchId }, text: edited });
    expect(res.status).toBe(201);
    const { id: forkId, fork } = (await res.json()) as { id: string; fork: ForkView };
    expect(forkId).not.toBe(id);
    const parentLog = dashboard.forks.logOf(id);
    expect(fork).toMatchObject({
      parentId: id,
      parentLabel: 'research #1',
      parentRunId: parentLog.header.runId,
      forkedAt: { step: 1 },
      edit: 'tool-result',
      at: `the result of ${searchId}`,
    });

    const state = await ended(forkId);
    expect(state.phase).toBe('done');
    const result = state.messages.find((m) => m.role === 'tool' && m.toolCallId === searchId);
    expect(textOf(result)).toBe(edited);
    // Everything else is the parent's: the same script goes on from step 2 (two reads, the answer).
    expect(state.messages.length).toBe(parent.messages.length);
    expect(textOf(state.messages.at(-1))).toBe(textOf(parent.messages.at(-1)));

    // It is a run like any other: listed with its lineage, recorded, its log naming the parent.
    const { runs } = (await (await fetch(new URL('/runs', dashboard.url))).json()) as { runs: RunSnapshot[] };
    const card = runs.find((r) => r.id === forkId);
    expect(card).toMatchObject({
      forkable: true,
      fork: { parentId: id },
      label: 'research #1 · fork at step 1',
    });
    expect(runs.find((r) => r.id === id)?.fork).toBeUndefined();
    expect(dashboard.forks.logOf(forkId).header.lineage?.parentRunId).toBe(parentLog.header.runId);
  });

  it("forks at a step's answer: the model message's text is replaced, its tool calls kept", async () => {
    const { id, state: parent } = await finishedResearch();
    const res = await post(`/runs/${id}/fork`, { at: { step: 1 }, text: 'Searching the docs, differently.' });
    expect(res.status).toBe(201);
    const { id: forkId, fork } = (await res.json()) as { id: string; fork: ForkView };
    expect(fork).toMatchObject({
      edit: 'replace-message',
      at: 'the answer of step 1',
      forkedAt: { step: 1 },
    });
    const state = await ended(forkId);
    const index = parent.messages.findIndex((m) => m.role === 'assistant');
    const answer = state.messages[index];
    expect(textOf(answer)).toBe('Searching the docs, differently.');
    const calls = (m: AgentMessage | undefined) =>
      m?.role === 'assistant' ? m.content.filter((p) => p.type === 'tool-call').map((p) => p.id) : [];
    expect(calls(answer)).toEqual(calls(parent.messages[index]));
    expect(state.phase).toBe('done');
  });

  it('refuses a fork point the run has not with the ForkError message (400), and starts nothing', async () => {
    const { id } = await finishedResearch();
    const before = dashboard.registry.entries().length;
    const noCall = await post(`/runs/${id}/fork`, { at: { toolCallId: 'call_nope' }, text: 'x' });
    expect(noCall.status).toBe(400);
    expect(await noCall.json()).toEqual({
      kind: 'ForkError',
      error: expect.stringContaining('No step of the log asked for the tool call call_nope'),
    });
    const noStep = await post(`/runs/${id}/fork`, { at: { step: 99 }, text: 'x' });
    expect(noStep.status).toBe(400);
    expect(await noStep.json()).toEqual({
      kind: 'ForkError',
      error: expect.stringContaining('No step 99 to fork at'),
    });
    expect(dashboard.registry.entries().length).toBe(before);
  });

  it('refuses bad bodies, texts over the limit, unknown runs, runs it did not record, and non-JSON posts', async () => {
    const { id, searchId } = await finishedResearch();
    const at = { toolCallId: searchId };
    const status = async (path: string, body: unknown, headers?: Record<string, string>) => {
      const res = await post(path, body, headers);
      return [res.status, ((await res.json()) as { error: string }).error] as const;
    };
    expect(await status(`/runs/${id}/fork`, { at })).toEqual([
      400,
      expect.stringContaining('"text" must be a string'),
    ]);
    expect(await status(`/runs/${id}/fork`, { at: { step: 0 }, text: 'x' })).toEqual([
      400,
      expect.stringContaining('"at"'),
    ]);
    expect(await status(`/runs/${id}/fork`, { at, text: 'x'.repeat(20_001) })).toEqual([
      400,
      expect.stringContaining('at most 20000'),
    ]);
    expect(await status('/runs/run-99/fork', { at, text: 'x' })).toEqual([
      404,
      expect.stringContaining('No run'),
    ]);
    expect(await status(`/runs/${id}/fork`, { at, text: 'x' }, { 'content-type': 'text/plain' })).toEqual([
      415,
      expect.stringContaining('JSON'),
    ]);
    const agent = new Agent({ model: scriptedModel([textTurn('Hi.')]) });
    const added = dashboard.addAgent(agent, 'mine');
    await agent.prompt('Hello');
    expect(await status(`/runs/${added}/fork`, { at: { step: 1 }, text: 'x' })).toEqual([
      409,
      expect.stringContaining('no recording to fork'),
    ]);
    const get = await fetch(new URL(`/runs/${id}/fork`, dashboard.url));
    expect(get.status).toBe(405);
  });
});

describe('GET /compare and /compare.json', () => {
  it('answers diffRuns(a, b) as JSON, and the page shows both transcripts with the edit marked, escaped', async () => {
    const { id, searchId } = await finishedResearch();
    const edited = '0 matches: <script>alert(1)</script>';
    const res = await post(`/runs/${id}/fork`, { at: { toolCallId: searchId }, text: edited });
    const { id: forkId } = (await res.json()) as { id: string };
    await ended(forkId);

    const json = await fetch(new URL(`/compare.json?a=${id}&b=${forkId}`, dashboard.url));
    expect(json.status).toBe(200);
    const diff = JSON.parse(
      JSON.stringify(diffRuns(dashboard.forks.logOf(id), dashboard.forks.logOf(forkId))),
    );
    expect(await json.json()).toEqual(diff);
    expect(diff.forkedAt.step).toBe(1);
    expect(diff.transcript.map((d: { change: string }) => d.change)).toContain('changed');

    const page = await fetch(new URL(`/compare?a=${id}&b=${forkId}`, dashboard.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).not.toContain('<script');
    expect(html).toContain('0 matches: &#60;script&#62;alert(1)&#60;/script&#62;');
    const changed = diff.transcript[0].index as number;
    expect(html).toContain(
      `<li class="msg diff-changed first-divergence" data-index="${changed}" data-role="tool">`,
    );
  });

  it('refuses a missing id (400), an unknown run (404), a run it did not record (409), other methods (405)', async () => {
    const { id } = await finishedResearch();
    const status = async (path: string, init?: RequestInit) =>
      (await fetch(new URL(path, dashboard.url), init)).status;
    expect(await status(`/compare.json?a=${id}`)).toBe(400);
    expect(await status(`/compare?a=${id}&b=run-99`)).toBe(404);
    const added = dashboard.addAgent(new Agent({ model: scriptedModel([textTurn('Hi.')]) }), 'mine');
    expect(await status(`/compare.json?a=${id}&b=${added}`)).toBe(409);
    expect(
      await status(`/compare.json?a=${id}&b=${id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      }),
    ).toBe(405);
  });
});

describe('fork and compare behind the guards of every route', () => {
  /** A request to 127.0.0.1:port with the given Host and headers; resolves with the status. */
  function send(port: number, method: string, path: string, headers: Record<string, string>, body?: string) {
    return new Promise<number | undefined>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end(body);
    });
  }
  const json = { 'content-type': 'application/json' };
  const body = JSON.stringify({ at: { step: 1 }, text: 'x' });

  it('refuses a foreign Host on loopback (403)', async () => {
    const { id } = await finishedResearch();
    const port = Number(new URL(dashboard.url).port);
    const evil = { host: 'evil.example:80' };
    expect(await send(port, 'POST', `/runs/${id}/fork`, { ...evil, ...json }, body)).toBe(403);
    expect(await send(port, 'GET', `/compare?a=${id}&b=${id}`, evil)).toBe(403);
    expect(await send(port, 'GET', `/compare.json?a=${id}&b=${id}`, evil)).toBe(403);
    expect(await send(port, 'GET', `/compare.json?a=${id}&b=${id}`, { host: `127.0.0.1:${port}` })).toBe(200);
  });

  it('needs the access token on another host (401 without it)', async () => {
    const open = await startDashboard({
      host: '0.0.0.0',
      port: 0,
      modelFactory: scriptedRunFactory({ timing: FAST }),
    });
    try {
      const port = Number(new URL(open.url).port);
      const id = open.startRun(undefined, { scenario: 'chat' });
      const lan = { host: `dashboard.lan:${port}` };
      expect(await send(port, 'POST', `/runs/${id}/fork`, { ...lan, ...json }, body)).toBe(401);
      expect(await send(port, 'GET', `/compare?a=${id}&b=${id}`, lan)).toBe(401);
      expect(await send(port, 'GET', `/compare.json?a=${id}&b=run-9`, lan)).toBe(401);
      const token = { ...lan, 'x-dashboard-token': open.token ?? '' };
      expect(await send(port, 'GET', `/compare.json?a=${id}&b=run-9`, token)).toBe(404);
      expect(await send(port, 'POST', '/runs/run-9/fork', { ...token, ...json }, body)).toBe(404);
    } finally {
      await open.close();
    }
  });
});
