import { request } from 'node:http';
import { asyncScheduler, filter, firstValueFrom } from 'rxjs';
import { Agent, jsonSchema, tool, type AgentState } from '@rxagent/core';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import type { Dashboard } from './dashboard-server.js';
import { post as postTo, scriptedDashboard } from './route-kit.test.js';

let dashboard: Dashboard;

beforeEach(async () => {
  dashboard = await scriptedDashboard();
});

afterEach(() => dashboard.close());

const post = (path: string, body: unknown, headers?: Record<string, string>) =>
  postTo(dashboard, path, body, headers);

/** A real Agent whose only tool waits for approval, added to the dashboard like the demo would. */
function approvalAgent() {
  const executed: unknown[] = [];
  const deploy = tool({
    name: 'deploy',
    description: 'Deploy',
    parameters: jsonSchema<{ env: string }>({ type: 'object', properties: { env: { type: 'string' } } }),
    needsApproval: true,
    execute: (args) => {
      executed.push(args);
      return 'deployed';
    },
  });
  const model = scriptedModel([
    toolCallTurn({ name: 'deploy', args: { env: 'prod' }, id: 'call_deploy' }),
    textTurn('Deployed.'),
  ]);
  const agent = new Agent({ model, tools: [deploy], scheduler: asyncScheduler });
  const id = dashboard.addAgent(agent, 'deployer');
  const waiting = firstValueFrom(agent.state$.pipe(filter((s) => s.pendingApprovals.length > 0)));
  const run = agent.prompt('Deploy to prod');
  return { agent, id, executed, waiting, run };
}

function until(agent: Agent, predicate: (s: AgentState) => boolean): Promise<AgentState> {
  return firstValueFrom(agent.state$.pipe(filter(predicate)));
}

describe('http routes', () => {
  it('serves the page, which listens to /events and never polls', async () => {
    const res = await fetch(dashboard.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const html = await res.text();
    expect(html).toContain('<script src="/page.js"></script>');
    const script = await fetch(new URL('/page.js', dashboard.url));
    expect(script.headers.get('content-type')).toContain('text/javascript');
    const js = await script.text();
    expect(js).toContain("new EventSource('/events')");
    expect(js).not.toMatch(/setInterval|setTimeout/);
  });

  it('GET / refuses framing and allows scripts and styles from its own origin only', async () => {
    const res = await fetch(dashboard.url);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await res.text();
    expect(html).not.toMatch(/<script>|<style>|\sstyle=|\son[a-z]+=/i);
    expect(html).toContain('<link rel="stylesheet" href="/page.css">');
    const css = await fetch(new URL('/page.css', dashboard.url));
    expect(css.headers.get('content-type')).toContain('text/css');
    expect(await css.text()).toContain('.run[data-phase="done"]');
  });

  it('DELETE /runs/:id removes a finished run and refuses a running one', async () => {
    const { agent, id, waiting, run } = approvalAgent();
    await waiting;
    const running = await fetch(new URL(`/runs/${id}`, dashboard.url), { method: 'DELETE' });
    expect(running.status).toBe(409);
    expect(((await running.json()) as { error: string }).error).toMatch(/still running/);
    expect(dashboard.registry.get(id)).toBeDefined();
    agent.abort();
    await run;
    const removed = await fetch(new URL(`/runs/${id}`, dashboard.url), { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ ok: true });
    expect(dashboard.registry.get(id)).toBeUndefined();
    const again = await fetch(new URL(`/runs/${id}`, dashboard.url), { method: 'DELETE' });
    expect(again.status).toBe(404);
  });

  it('never grants a CORS preflight, so a cross-site page cannot DELETE or POST JSON', async () => {
    const res = await fetch(new URL('/runs/run-1', dashboard.url), {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'DELETE' },
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('POST /runs starts a run that GET /runs lists', async () => {
    const res = await post('/runs', { scenario: 'chat', prompt: 'Hello there' });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const agent = dashboard.registry.get(id)?.agent as Agent;
    await until(agent, (s) => s.phase === 'done');
    const list = (await (await fetch(new URL('/runs', dashboard.url))).json()) as { runs: unknown[] };
    expect(list.runs).toEqual([
      expect.objectContaining({
        id,
        label: 'chat #1',
        phase: 'done',
        prompt: 'Hello there',
        stopReason: 'completed',
      }),
    ]);
  });

  it('an approval reaches Agent.approve and the run goes on', async () => {
    const { agent, id, executed, waiting, run } = approvalAgent();
    const approve = jest.spyOn(agent, 'approve');
    await waiting;
    const res = await post(`/runs/${id}/approvals/call_deploy`, { approved: true });
    expect(res.status).toBe(200);
    expect(approve).toHaveBeenCalledWith('call_deploy');
    expect((await run).reason).toBe('completed');
    expect(executed).toEqual([{ env: 'prod' }]);
  });

  it('a rejection reaches Agent.reject with its reason', async () => {
    const { agent, id, executed, waiting, run } = approvalAgent();
    const reject = jest.spyOn(agent, 'reject');
    await waiting;
    const res = await post(`/runs/${id}/approvals/call_deploy`, { approved: false, reason: 'Friday' });
    expect(res.status).toBe(200);
    expect(reject).toHaveBeenCalledWith('call_deploy', 'Friday');
    expect((await run).reason).toBe('rejected');
    expect(executed).toEqual([]);
  });

  it('an abort reaches Agent.abort and the run is cancelled', async () => {
    const { agent, id, waiting, run } = approvalAgent();
    const abort = jest.spyOn(agent, 'abort');
    await waiting;
    const res = await post(`/runs/${id}/abort`, {});
    expect(await res.json()).toEqual({ ok: true, wasRunning: true });
    expect(abort).toHaveBeenCalled();
    expect((await run).reason).toBe('user-requested');
    expect(agent.state$.value.phase).toBe('cancelled');
  });

  it('answers mistakes with a status and a message saying what to send', async () => {
    const { agent, id, waiting, run } = approvalAgent();
    await waiting;
    const cases: [Promise<Response>, number, RegExp][] = [
      [post('/runs/run-99/abort', {}), 404, /No run "run-99"/],
      [post(`/runs/${id}/approvals/nope`, { approved: true }), 409, /not waiting for approval/],
      [post(`/runs/${id}/approvals/call_deploy`, { approved: 'yes' }), 400, /"approved": true/],
      [
        post(`/runs/${id}/approvals/call_deploy`, { approved: true }, { 'content-type': 'text/plain' }),
        415,
        /JSON/,
      ],
      [fetch(new URL(`/runs/${id}/abort`, dashboard.url)), 405, /Use POST/],
      [fetch(new URL('/nothing', dashboard.url)), 404, /No route/],
    ];
    for (const [response, status, message] of cases) {
      const res = await response;
      expect(res.status).toBe(status);
      expect(((await res.json()) as { error: string }).error).toMatch(message);
    }
    const invalid = await fetch(new URL('/runs', dashboard.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{oops',
    });
    expect(invalid.status).toBe(400);
    agent.abort();
    await run;
  });

  it('refuses requests for another host name (DNS rebinding)', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(dashboard.url, { headers: { host: 'evil.example:80' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('GET /events sends a snapshot, then the updates of the runs', async () => {
    const controller = new AbortController();
    const res = await fetch(new URL('/events', dashboard.url), { signal: controller.signal });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (needle: string) => {
      while (!text.includes(needle)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended before ${needle}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    await readUntil('event: snapshot\n');
    await readUntil('\n\n');
    const snapshot = JSON.parse(/event: snapshot\ndata: (.*)\n/.exec(text)?.[1] as string) as Record<
      string,
      unknown
    >;
    expect(snapshot).toEqual({
      runs: [],
      events: [],
      scenarios: ['research', 'change', 'chat', 'long'],
      source: 'scripted',
      durable: false,
    });
    const id = dashboard.startRun(undefined, { scenario: 'chat' });
    await readUntil(`"phase":"done"`);
    expect(text).toContain(`event: run\ndata: {"type":"run","run":{"id":"${id}"`);
    expect(text).toContain(
      'event: event\ndata: {"type":"event","event":{"runId":"run-1","type":"agent-start"',
    );
    controller.abort();
    await reader.cancel().catch(() => undefined);
  });
});
