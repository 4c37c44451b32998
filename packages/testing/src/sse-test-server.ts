import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { formatSSEFrame } from '@rxagent/core/streams';

/**
 * One Server-Sent Event: `event:` line (optional) and `data:` (objects are JSON-encoded).
 *
 * @example
 * const event: SseEvent = { event: 'message_stop', data: { type: 'message_stop' } };
 */
export interface SseEvent {
  event?: string;
  data: unknown;
}

/**
 * A step of a scripted response body.
 *
 * @example
 * const steps: SseStep[] = [{ data: { choices: [] } }, { delayMs: 50 }, { raw: ': keep-alive\n\n' }];
 * let sawIt = () => {};
 * const seen = new Promise<void>((resolve) => (sawIt = resolve)); // the test calls sawIt() when its client read the chunk
 * const cut: SseScript = { events: [{ data: { choices: [] } }, { until: seen }], after: 'cut' };
 */
export type SseStep =
  | SseEvent
  /** Wait before writing what follows. */
  | { delayMs: number }
  /**
   * Wait for this (e.g. until the client has read what was sent) before writing what follows:
   * a test that cuts or stalls a stream waits on the event it needs, never on a guessed delay.
   */
  | { until: PromiseLike<unknown> }
  /** Bytes written as they are (malformed chunks, comments, partial lines). */
  | { raw: string | Uint8Array }
  /** Wait until the promise settles before writing what follows (a timer on another clock). */
  | { wait: () => Promise<unknown> };

/**
 * What the server answers to one request.
 *
 * @example
 * const script: SseScript = { status: 429, headers: { 'retry-after': '2' }, json: { error: { message: 'Slow down' } } };
 */
export interface SseScript {
  /** HTTP status (default 200). */
  status?: number;
  headers?: Record<string, string>;
  /** A JSON body (error responses); no SSE then. */
  json?: unknown;
  /** The SSE body. */
  events?: SseStep[];
  /** After the body: `'end'` the response (default), `'cut'` the socket mid-stream, `'stall'` (keep it open, silent). */
  after?: 'end' | 'cut' | 'stall';
  /** Split every write into pieces of this many bytes, each written separately (transport splits). */
  chunkSize?: number;
}

/**
 * A request the server received.
 *
 * @example
 * const [first]: RecordedRequest[] = server.requests;
 * expect(first?.body).toMatchObject({ stream: true });
 */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** The body, parsed as JSON when it is JSON. */
  body: unknown;
  /** The body as the client sent it, byte for byte (UTF-8). */
  rawBody: string;
  /** True once the client closed the connection before the response ended. */
  clientClosed: boolean;
  /** Resolves when the client closes the connection early (never for a completed response). */
  readonly closedByClient: Promise<void>;
}

/**
 * A running SSE test server.
 *
 * @example
 * const server: SseTestServer = await startSseTestServer(() => ({ events: [{ data: '[DONE]' }] }));
 * afterAll(() => server.close());
 */
export interface SseTestServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Stops the server, destroying open (stalled) connections. */
  close(): Promise<void>;
}

/**
 * Encodes one SSE event (with its `event:` line when given).
 *
 * @example
 * encodeSse({ event: 'ping', data: { type: 'ping' } }); // 'event: ping\ndata: {"type":"ping"}\n\n'
 */
export function encodeSse(event: SseEvent): string {
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  return formatSSEFrame(event.event ? { event: event.event, data } : { data });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Writes and waits until the bytes are handed to the socket, so a later cut loses nothing written. */
function flushWrite(res: ServerResponse, bytes: Buffer): Promise<void> {
  return new Promise<void>((resolve) => {
    if (res.destroyed) return resolve();
    res.write(bytes, () => resolve());
  });
}

async function write(res: ServerResponse, bytes: string | Uint8Array, chunkSize: number | undefined) {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes);
  if (!chunkSize) return flushWrite(res, buffer);
  for (let i = 0; i < buffer.length; i += chunkSize) {
    if (res.destroyed) return;
    await flushWrite(res, buffer.subarray(i, i + chunkSize));
    await sleep(1);
  }
}

/**
 * Starts an HTTP server on 127.0.0.1 (a free port) that answers each request with the script
 * `handler` returns: a JSON error, or a Server-Sent Events body that may be split at any byte,
 * delayed, cut mid-stream or left stalled. It records every request (headers, parsed body)
 * and whether the client closed the connection early. For adapter tests with the real SDKs.
 *
 * @example
 * const server = await startSseTestServer(() => ({ events: [{ data: { choices: [] } }, { data: '[DONE]' }] }));
 * const client = new OpenAI({ apiKey: 'test', baseURL: `${server.url}/v1` });
 * // …
 * await server.close();
 */
export async function startSseTestServer(
  handler: (request: RecordedRequest, index: number) => SseScript | Promise<SseScript>,
): Promise<SseTestServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text
      }
      let onClose: () => void = () => undefined;
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body,
        rawBody: text,
        clientClosed: false,
        closedByClient: new Promise<void>((resolve) => (onClose = resolve)),
      };
      res.on('close', () => {
        if (!res.writableFinished) {
          recorded.clientClosed = true;
          onClose();
        }
      });
      requests.push(recorded);
      void respond(recorded, requests.length - 1, res);
    });
  });
  const respond = async (recorded: RecordedRequest, index: number, res: ServerResponse) => {
    let script: SseScript;
    try {
      script = await handler(recorded, index);
    } catch (error) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: String(error) } }));
      return;
    }
    if (script.json !== undefined || (script.status ?? 200) >= 400) {
      res.writeHead(script.status ?? 200, { 'content-type': 'application/json', ...script.headers });
      res.end(script.json === undefined ? '' : JSON.stringify(script.json));
      return;
    }
    res.writeHead(script.status ?? 200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...script.headers,
    });
    res.flushHeaders();
    for (const step of script.events ?? []) {
      if (res.destroyed) return;
      if ('delayMs' in step) await sleep(step.delayMs);
      else if ('wait' in step) await step.wait();
      else if ('until' in step) await step.until;
      else if ('raw' in step) await write(res, step.raw, script.chunkSize);
      else await write(res, encodeSse(step), script.chunkSize);
    }
    if (res.destroyed) return;
    const after = script.after ?? 'end';
    if (after === 'end') res.end();
    else if (after === 'cut') setTimeout(() => res.socket?.destroy(), 20); // let the last bytes reach the client
    // 'stall': leave it open; close() destroys it.
  };
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
