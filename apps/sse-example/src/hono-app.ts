import { serve } from '@hono/node-server';
import { agUIHandler, type RxAgentAGUIAgent } from '@rxagent/ag-ui';
import { sseResponse } from '@rxagent/core/streams';
import { Hono } from 'hono';
import { EXAMPLE_PAGE } from './example-page.js';
import type { RunHubs } from './run-hubs.js';
import { uiChatRoutes, type StartChatRun } from './ui-chat-routes.js';

/**
 * What else the Hono app serves: the run page, the AI SDK chat routes (`uiChatRoutes`) with runs
 * from `chat`, an AG-UI endpoint, static pages.
 *
 * @example
 * honoRunApp(hubs, { chat: (prompt, approver) => chatRun(prompt, approver) });
 */
export interface HonoRunAppOptions {
  chat?: StartChatRun;
  /** An AG-UI agent served at `POST /api/ag-ui` (`agUIHandler`). */
  agUI?: RxAgentAGUIAgent;
  /** Static files by path (pages and their bundled scripts), e.g. `{ '/chat': { type: 'text/html', body } }`. */
  assets?: Record<string, { type: string; body: string }>;
  /** The run page's script (`bundlePageScript`): the page at `/`, its script at `/page.js`. */
  pageScript?: Promise<string>;
}

/**
 * The example's routes as a Hono app (runs on Node, Deno, Bun, workers): `POST /runs` starts a
 * run, `GET /runs/:id/events` streams it with `sseResponse` — a web `Response` whose body is
 * `toSSEStream(hub)`, resuming after `Last-Event-ID`; with `pageScript`, the page at `/`.
 *
 * @example
 * serve({ fetch: honoRunApp(hubs).fetch, port: 8787 });
 */
export function honoRunApp(hubs: RunHubs, options: HonoRunAppOptions = {}): Hono {
  const app = new Hono();
  const page = options.pageScript;
  if (page) {
    app.get('/', (c) => c.html(EXAMPLE_PAGE));
    app.get('/page.js', async (c) =>
      c.body(await page, 200, { 'content-type': 'text/javascript; charset=utf-8' }),
    );
  }
  if (options.chat) uiChatRoutes(app, options.chat);
  if (options.agUI) {
    const handle = agUIHandler(options.agUI);
    app.post('/api/ag-ui', (c) => handle(c.req.raw));
  }
  for (const [path, asset] of Object.entries(options.assets ?? {})) {
    app.get(path, (c) => c.body(asset.body, 200, { 'content-type': asset.type }));
  }
  app.post('/runs', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { prompt?: unknown };
    if (typeof body.prompt !== 'string' || !body.prompt.trim()) {
      return c.json({ error: 'Send {"prompt": "..."} with a non-empty prompt.' }, 400);
    }
    const id = hubs.create(body.prompt);
    return c.json({ id, events: `/runs/${id}/events` }, 201);
  });
  app.get('/runs/:id/events', (c) => {
    const hub = hubs.get(c.req.param('id'));
    if (!hub) return c.json({ error: `No live run ${c.req.param('id')}.` }, 404);
    return sseResponse(hub, { lastEventId: c.req.header('last-event-id'), keepAliveMs: 15_000 });
  });
  return app;
}

/**
 * Serves the Hono app on Node (`@hono/node-server`), on `host:port` (port 0: a free one).
 *
 * @example
 * const { url, close } = await startHonoServer(hubs, { port: 8788 });
 */
export function startHonoServer(
  hubs: RunHubs,
  options: HonoRunAppOptions & { host?: string; port?: number } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve) => {
    const server = serve(
      { fetch: honoRunApp(hubs, options).fetch, hostname: host, port: options.port ?? 0 },
      (info) => {
        resolve({
          url: `http://${host}:${info.port}`,
          close: () =>
            new Promise<void>((done) => {
              if ('closeAllConnections' in server) server.closeAllConnections();
              server.close(() => done());
            }),
        });
      },
    );
  });
}
