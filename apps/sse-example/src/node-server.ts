import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { sendSSE } from '@rxagent/core/streams';
import { EXAMPLE_PAGE } from './example-page.js';
import type { RunHubs } from './run-hubs.js';

const MAX_BODY = 64 * 1024;

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > MAX_BODY) reject(new Error('body too large'));
    });
    req.on('end', () => {
      try {
        resolve(body ? JSON.parse(body) : {});
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(value));
}

/**
 * The two routes of the example as a plain `node:http` handler: `POST /runs {"prompt"}` starts
 * a run and answers `{ id, events }`; `GET /runs/:id/events` streams it as Server-Sent Events
 * (`sendSSE`), resuming after the client's `Last-Event-ID`. Returns false for other paths.
 *
 * @example
 * const handle = nodeRunRoutes(hubs);
 * createServer((req, res) => { if (!handle(req, res)) res.writeHead(404).end(); });
 */
export function nodeRunRoutes(hubs: RunHubs): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'POST' && url.pathname === '/runs') {
      readJson(req).then(
        (body) => {
          const prompt = (body as { prompt?: unknown }).prompt;
          if (typeof prompt !== 'string' || !prompt.trim()) {
            return sendJson(res, 400, { error: 'Send {"prompt": "..."} with a non-empty prompt.' });
          }
          const id = hubs.create(prompt);
          sendJson(res, 201, { id, events: `/runs/${id}/events` });
        },
        () => sendJson(res, 400, { error: 'The body must be JSON: {"prompt": "..."}.' }),
      );
      return true;
    }
    const events = /^\/runs\/([\w-]+)\/events$/.exec(url.pathname);
    if (req.method === 'GET' && events) {
      const hub = hubs.get(events[1] as string);
      if (!hub) {
        sendJson(res, 404, { error: `No live run ${events[1]}.` });
        return true;
      }
      void sendSSE(res, hub, { request: req, keepAliveMs: 15_000 });
      return true;
    }
    return false;
  };
}

/**
 * A plain Node server with the example's routes, listening on `host:port` (port 0: a free one);
 * with `pageScript` (see `bundlePageScript`) it also serves the example's page at `/`.
 *
 * @example
 * const { url, close } = await startNodeServer(hubs, { port: 8787, pageScript });
 */
export async function startNodeServer(
  hubs: RunHubs,
  options: { host?: string; port?: number; pageScript?: Promise<string> } = {},
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const handle = nodeRunRoutes(hubs);
  const page = options.pageScript;
  const server = createServer((req, res) => {
    if (page && req.method === 'GET' && req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(EXAMPLE_PAGE);
    } else if (page && req.method === 'GET' && req.url === '/page.js') {
      page.then(
        (script) => res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script),
        (error: unknown) => sendJson(res, 500, { error: `The page script did not build: ${String(error)}` }),
      );
    } else if (!handle(req, res)) sendJson(res, 404, { error: 'Not found.' });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
