import { serve } from '@hono/node-server';
import { sseResponse } from '@rxagent/core/streams';
import { Hono } from 'hono';
import { EXAMPLE_PAGE } from './example-page.js';
import type { RunHubs } from './run-hubs.js';

/**
 * The example's routes as a Hono app (runs on Node, Deno, Bun, workers): `POST /runs` starts a
 * run, `GET /runs/:id/events` streams it with `sseResponse` — a web `Response` whose body is
 * `toSSEStream(hub)`, resuming after `Last-Event-ID`; with `pageScript`, the page at `/`.
 *
 * @example
 * serve({ fetch: honoRunApp(hubs).fetch, port: 8787 });
 */
export function honoRunApp(hubs: RunHubs, options: { pageScript?: Promise<string> } = {}): Hono {
  const app = new Hono();
  const page = options.pageScript;
  if (page) {
    app.get('/', (c) => c.html(EXAMPLE_PAGE));
    app.get('/page.js', async (c) =>
      c.body(await page, 200, { 'content-type': 'text/javascript; charset=utf-8' }),
    );
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
  options: { host?: string; port?: number; pageScript?: Promise<string> } = {},
): Promise<{ url: string; close(): Promise<void> }> {
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve) => {
    const server = serve(
      {
        fetch: honoRunApp(hubs, { pageScript: options.pageScript }).fetch,
        hostname: host,
        port: options.port ?? 0,
      },
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
