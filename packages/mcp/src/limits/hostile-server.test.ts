// A hostile MCP server over Streamable HTTP, written by hand on node:http so that it can break
// the protocol's sizes: an endless server-sent event, an endless JSON body, results too large
// or with too many parts, a tool list of any length. The limits tests run it in process.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HostileServer {
  readonly url: string;
  /** Responses whose connection the client closed before the server finished writing. */
  readonly stats: { abandoned: number; bytesWritten: number };
  close(): Promise<void>;
}

const TOOLS = ['endless-event', 'endless-json', 'big-event', 'big-text', 'many-parts', 'ok'];

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => resolve(body));
  });
}

/** Writes `head`, then `chunk` forever (respecting backpressure) until the client goes away. */
function endless(res: ServerResponse, head: string, stats: HostileServer['stats']): void {
  const chunk = 'A'.repeat(64 * 1024);
  let open = true;
  res.on('close', () => {
    if (open) stats.abandoned += 1;
    open = false;
  });
  res.write(head);
  const pump = () => {
    while (open && res.write(chunk)) stats.bytesWritten += chunk.length;
    if (open) res.once('drain', pump);
  };
  pump();
}

function result(id: unknown, value: unknown): string {
  return JSON.stringify({ jsonrpc: '2.0', id, result: value });
}

/**
 * Starts the hostile server on 127.0.0.1. `toolCount` makes `tools/list` list that many tools
 * (named `tool-<n>`) besides the hostile ones.
 */
export async function startHostileServer(toolCount = 0): Promise<HostileServer> {
  const stats = { abandoned: 0, bytesWritten: 0 };
  const server = createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    void readBody(req).then((body) => {
      const message = JSON.parse(body) as { id?: unknown; method: string; params?: { name?: string } };
      const json = (text: string) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(text);
      switch (message.method) {
        case 'initialize':
          return json(
            result(message.id, {
              protocolVersion: '2025-06-18',
              capabilities: { tools: {} },
              serverInfo: { name: 'hostile', version: '1.0.0' },
            }),
          );
        case 'tools/list': {
          const names = [...TOOLS, ...Array.from({ length: toolCount }, (_, i) => `tool-${i}`)];
          const tools = names.map((name) => ({ name, description: name, inputSchema: { type: 'object' } }));
          return json(result(message.id, { tools }));
        }
        case 'tools/call':
          break;
        default:
          return message.id === undefined ? void res.writeHead(202).end() : json(result(message.id, {}));
      }
      const open = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"content":[{"type":"text","text":"`;
      switch (message.params?.name) {
        case 'endless-event':
          res.writeHead(200, { 'Content-Type': 'text/event-stream' });
          return endless(res, `event: message\ndata: ${open}`, stats);
        case 'endless-json':
          res.writeHead(200, { 'Content-Type': 'application/json' });
          return endless(res, open, stats);
        case 'big-event': {
          res.writeHead(200, { 'Content-Type': 'text/event-stream' });
          const big = result(message.id, { content: [{ type: 'text', text: 'B'.repeat(3 * 1024 * 1024) }] });
          return void res.end(`event: message\ndata: ${big}\n\n`);
        }
        case 'big-text':
          return json(result(message.id, { content: [{ type: 'text', text: 'C'.repeat(5 * 1024 * 1024) }] }));
        case 'many-parts':
          return json(
            result(message.id, {
              content: Array.from({ length: 200_000 }, () => ({ type: 'text', text: 'x' })),
            }),
          );
        default:
          return json(result(message.id, { content: [{ type: 'text', text: 'fine' }] }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
