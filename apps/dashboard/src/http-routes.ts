import type { IncomingMessage, ServerResponse } from 'node:http';
import { isTerminal } from '@rxagent/core';
import { requestToken, TOKEN_HEADER, tokenCookie, tokenMatches } from './access-token.js';
import { compareRoute } from './compare-routes.js';
import type { DashboardForks } from './dashboard-forks.js';
import { answerElicitationRoute } from './elicitation-route.js';
import { forkRoute } from './fork-routes.js';
import { HttpError, readJsonBody, sendJson } from './http-json.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLES } from './page-styles.js';
import type { RunRegistry } from './run-registry.js';
import { setSecurityHeaders } from './security-headers.js';
import { SseChannel, type SseChannelOptions } from './sse-channel.js';
import { timelineRoute } from './timeline-routes.js';
import type { TimelineStore } from './timeline-store.js';
import { RunControlError } from './watched-run.js';

/**
 * What the routes work with.
 *
 * @example
 * createRequestHandler({ registry, startRun, page: dashboardPage(), scenarios: [], source: 'custom', sse: {}, channels: new Set() });
 */
export interface RouteContext {
  registry: RunRegistry;
  /** Starts a run from `POST /runs`; returns its id. */
  startRun(input: { prompt?: string; scenario?: string }): string;
  /** The HTML served at `/`. */
  page: string;
  /** Offered in the page's "new run" form. */
  scenarios: readonly string[];
  /** Where runs come from, shown in the header (`scripted`, `openai gpt-4o-mini`…). */
  source: string;
  sse: SseChannelOptions;
  /** The open `/events` channels (the server closes them on shutdown). */
  channels: Set<SseChannel>;
  /** When set, requests whose `Host` is not in it are refused (DNS-rebinding guard). */
  allowedHosts?: ReadonlySet<string>;
  /**
   * When set, every request must carry it (`?token=`, the `x-dashboard-token` header or the
   * cookie set when the page is opened with `?token=`), else 401.
   */
  accessToken?: string;
  /** At most this many `/events` clients at once; more get 503 (default 32). */
  maxClients?: number;
  /** The runs' timelines (`GET /runs/:id/timeline`). */
  timelines?: TimelineStore;
  /** Forks and compares recorded runs (`POST /runs/:id/fork`, `GET /compare`, `GET /compare.json`). */
  forks?: DashboardForks;
  /**
   * Shows a durable run by its id (`POST /durable-runs {runId}`); returns its card's id. Set
   * only when the dashboard has a durable runs client.
   */
  attachDurable?(runId: string): Promise<string>;
}

/**
 * What `GET /events` sends first, and again on every reconnection.
 *
 * @example
 * source.addEventListener('snapshot', (e) => render(JSON.parse(e.data) as DashboardSnapshot));
 */
export interface DashboardSnapshot {
  runs: ReturnType<RunRegistry['snapshots']>;
  events: ReturnType<RunRegistry['recentEvents']>;
  scenarios: readonly string[];
  source: string;
  /** True when durable runs can be attached by id (`POST /durable-runs`). */
  durable: boolean;
}

/**
 * The dashboard's HTTP routes:
 * `GET /` the page · `GET /events` the SSE stream (a `snapshot`, then `run` / `event` /
 * `removed` updates) · `GET /page.js`, `GET /page.css` · `GET /runs` the snapshots as JSON ·
 * `POST /runs {prompt?, scenario?}` → 201 `{id}` · `DELETE /runs/:id` (409 while it runs) ·
 * `POST /runs/:id/abort` · `POST /runs/:id/approvals/:toolCallId
 * {approved, reason?}` (409 when that call is not waiting) · `POST /runs/:id/elicitations/:id
 * {action, content?}` (a tool's form; 400 for values that do not fit) · `POST /durable-runs {runId}` →
 * 201 `{id}` (a durable run's card; with `attachDurable`) · `POST /runs/:id/fork {at, text}` → 201
 * `{id, fork}` · `GET /compare?a=&b=` (HTML), `GET /compare.json?a=&b=` (`diffRuns`). Errors are
 * JSON `{error}`.
 *
 * @example
 * const server = http.createServer(createRequestHandler({ registry, startRun, page: dashboardPage(), scenarios: [], source: 'scripted', sse: {}, channels: new Set() }));
 */
export function createRequestHandler(ctx: RouteContext): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    setSecurityHeaders(res);
    route(ctx, req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.end();
      if (error instanceof HttpError) sendJson(res, error.status, { error: error.message });
      else sendJson(res, 500, { error: error instanceof Error ? error.message : String(error) });
    });
  };
}

async function route(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (ctx.allowedHosts && !ctx.allowedHosts.has(req.headers.host ?? '')) {
    throw new HttpError(
      403,
      `Unexpected Host header "${req.headers.host ?? ''}": open the URL the dashboard printed.`,
    );
  }
  if (ctx.accessToken !== undefined) {
    const found = requestToken(req);
    if (!tokenMatches(ctx.accessToken, found?.token)) {
      throw new HttpError(
        401,
        `This dashboard needs its access token: open the URL it printed (with ?token=), or send the ${TOKEN_HEADER} header.`,
      );
    }
    if (found?.from === 'query') res.setHeader('set-cookie', tokenCookie(ctx.accessToken));
  }
  const path = pathParts(req.url ?? '/');
  const method = req.method ?? 'GET';
  const [first, id, action, toolCallId, ...rest] = path;

  if (method === 'OPTIONS') {
    throw new HttpError(405, 'No cross-origin requests: use the page the dashboard serves.');
  }
  if (path.length === 0) {
    expectMethod(method, 'GET');
    return sendText(res, 'text/html', ctx.page);
  }
  if (first === 'page.js' && path.length === 1) {
    expectMethod(method, 'GET');
    return sendText(res, 'text/javascript', PAGE_SCRIPT);
  }
  if (first === 'page.css' && path.length === 1) {
    expectMethod(method, 'GET');
    return sendText(res, 'text/css', PAGE_STYLES);
  }
  if (first === 'events' && path.length === 1) {
    expectMethod(method, 'GET');
    const max = ctx.maxClients ?? 32;
    if (ctx.channels.size >= max) {
      throw new HttpError(503, `Too many event streams open (${max}): close a dashboard tab and retry.`);
    }
    return openEvents(ctx, res);
  }
  if (timelineRoute(ctx.timelines, path, method, res)) return;
  if (compareRoute(ctx.forks, path, method, new URL(req.url ?? '/', 'http://dashboard').searchParams, res))
    return;
  if (await forkRoute(ctx.forks, path, method, req, res)) return;
  if (first === 'durable-runs' && path.length === 1) return attachDurable(ctx, req, res, method);
  if (first !== 'runs' || rest.length > 0) throw new HttpError(404, `No route ${method} ${req.url ?? ''}.`);
  if (id === undefined) {
    if (method === 'GET') return sendJson(res, 200, { runs: ctx.registry.snapshots() });
    expectMethod(method, 'POST');
    const body = await readJsonBody(req);
    const runId = ctx.startRun({
      prompt: optionalString(body, 'prompt'),
      scenario: optionalString(body, 'scenario'),
    });
    return sendJson(res, 201, { id: runId });
  }
  const entry = ctx.registry.get(id);
  if (!entry) throw new HttpError(404, `No run "${id}": GET /runs lists them.`);
  if (action === undefined) {
    // DELETE needs a CORS preflight from another site, which is never granted (like JSON POSTs).
    expectMethod(method, 'DELETE');
    if (!isTerminal(entry.agent.state$.value.phase)) {
      throw new HttpError(409, `Run ${id} is still running: abort it (POST /runs/${id}/abort) first.`);
    }
    ctx.registry.remove(id);
    return sendJson(res, 200, { ok: true });
  }
  if (action === 'abort' && toolCallId === undefined) {
    expectMethod(method, 'POST');
    await readJsonBody(req);
    const wasRunning = !isTerminal(entry.agent.state$.value.phase);
    await reach(id, 'cancel', async () => entry.agent.abort());
    return sendJson(res, 200, { ok: true, wasRunning });
  }
  if (action === 'approvals' && toolCallId !== undefined) {
    expectMethod(method, 'POST');
    const body = await readJsonBody(req);
    if (typeof body.approved !== 'boolean') {
      throw new HttpError(400, 'Send {"approved": true}, or {"approved": false, "reason": "why"}.');
    }
    const reason = optionalString(body, 'reason');
    const decided = await reach(id, 'decide', async () =>
      body.approved ? entry.agent.approve(toolCallId) : entry.agent.reject(toolCallId, reason),
    );
    if (!decided) {
      throw new HttpError(
        409,
        `Tool call "${toolCallId}" of ${id} is not waiting for approval (decided already?).`,
      );
    }
    return sendJson(res, 200, { ok: true });
  }
  if (action === 'elicitations' && toolCallId !== undefined) {
    expectMethod(method, 'POST');
    await answerElicitationRoute(entry, toolCallId, await readJsonBody(req));
    return sendJson(res, 200, { ok: true });
  }
  throw new HttpError(404, `No route ${method} ${req.url ?? ''}.`);
}

/**
 * Runs a button's action on a run. A run watched from elsewhere may refuse it (409) or not be
 * reachable (503): the page says so, and an approval stays undecided here (fail closed), so
 * it can be tried again.
 */
async function reach<T>(id: string, what: string, act: () => Promise<T>): Promise<T> {
  try {
    return await act();
  } catch (error) {
    if (RunControlError.isInstance(error)) throw new HttpError(409, error.message);
    const detail = error instanceof Error ? error.message : String(error);
    throw new HttpError(503, `Could not ${what} ${id}: ${detail} Try again.`);
  }
}

async function attachDurable(
  ctx: RouteContext,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
): Promise<void> {
  expectMethod(method, 'POST');
  if (!ctx.attachDurable) {
    throw new HttpError(404, 'This dashboard has no durable runs: start it with --durable <databaseUrl>.');
  }
  const body = await readJsonBody(req);
  const runId = optionalString(body, 'runId')?.trim();
  if (!runId || runId.length > 200) {
    throw new HttpError(400, 'Send {"runId": "…"}: the id startRun returned (at most 200 characters).');
  }
  return sendJson(res, 201, { id: await ctx.attachDurable(runId) });
}

function openEvents(ctx: RouteContext, res: ServerResponse): void {
  const channel = new SseChannel(res, ctx.sse);
  ctx.channels.add(channel);
  const snapshot: DashboardSnapshot = {
    runs: ctx.registry.snapshots(),
    events: ctx.registry.recentEvents(),
    scenarios: ctx.scenarios,
    source: ctx.source,
    durable: ctx.attachDurable !== undefined,
  };
  channel.send('snapshot', snapshot);
  // Each update is serialized once for every page (registry.frames$), not once per page.
  const subscription = ctx.registry.frames$.subscribe({
    next: (frame) => channel.sendFrame(frame),
    complete: () => channel.close(),
  });
  channel.onClose(() => {
    subscription.unsubscribe();
    ctx.channels.delete(channel);
  });
}

function sendText(res: ServerResponse, type: string, body: string): void {
  res.writeHead(200, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
  res.end(body);
}

function pathParts(url: string): string[] {
  const { pathname } = new URL(url, 'http://dashboard');
  try {
    return pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    throw new HttpError(400, `Malformed URL ${url}.`);
  }
}

function expectMethod(method: string, expected: string): void {
  if (method !== expected) throw new HttpError(405, `Use ${expected} here, not ${method}.`);
}

function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new HttpError(400, `"${key}" must be a string.`);
  return value;
}
