import type { AbstractAgent } from '@ag-ui/client';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { agUIHandler, type AGUIHandlerOptions } from './ag-ui-handler.js';

const MAX_BODY = 4 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  let body = '';
  req.setEncoding('utf8');
  for await (const chunk of req as AsyncIterable<string>) {
    body += chunk;
    if (body.length > MAX_BODY) return undefined;
  }
  return body;
}

/**
 * `agUIHandler` for a `node:http` (or Express) server: reads the request, writes the events with
 * back-pressure (waits for `drain`), and stops reading the run when the client goes away.
 *
 * @example
 * createServer(agUINodeHandler(agent)).listen(8790, '127.0.0.1');
 */
export function agUINodeHandler(
  agent: AbstractAgent,
  options: AGUIHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const handle = agUIHandler(agent, options);
  return async (req, res) => {
    const body = req.method === 'POST' ? await readBody(req) : undefined;
    if (req.method === 'POST' && body === undefined) {
      res.writeHead(413, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: `The body is over ${MAX_BODY} bytes.` }));
      return;
    }
    const init: RequestInit = { method: req.method ?? 'GET' };
    if (body !== undefined) init.body = body;
    const response = await handle(new Request(`http://localhost${req.url ?? '/'}`, init));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    const reader = response.body.getReader();
    res.on('close', () => void reader.cancel().catch(() => undefined));
    try {
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        if (!res.write(r.value)) await once(res, 'drain');
      }
    } catch {
      // The client went away: the run was cancelled with the reader.
    }
    res.end();
  };
}
