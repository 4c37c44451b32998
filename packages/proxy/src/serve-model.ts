import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Subscription } from 'rxjs';
import { AgentConfigError, AuthError, ProviderError, type ChatModel } from '@rxagent/core';
import { HttpProblem, problem } from './http-problem.js';
import { parseRequest, readBody } from './read-body.js';
import { applyRequestPolicy, type RequestPolicy } from './request-policy.js';
import { streamModelEvents } from './event-stream.js';
import { toWireError } from './wire-error.js';

/**
 * Options of `serveModel`.
 *
 * @example
 * const options: ServeModelOptions = { port: 8787, host: '127.0.0.1', token: process.env.PROXY_TOKEN!, allowOrigins: ['http://localhost:5173'] };
 */
export interface ServeModelOptions extends RequestPolicy {
  /** Default 0: a free port (read it from `server.url`). */
  port?: number;
  /** Default `127.0.0.1`. */
  host?: string;
  /** The bearer token clients must send. Required: there is no open mode. */
  token: string;
  /** Browser origins allowed to call (CORS). Requests from other origins are refused. */
  allowOrigins?: readonly string[];
  /** Largest request body accepted (default 16 MiB). */
  maxBodyBytes?: number;
  /**
   * How often a `: ping` comment goes out on an open stream, so that proxies between the two
   * ends do not cut a quiet one (default 15 000 ms; `Infinity` sends none).
   */
  pingIntervalMs?: number;
}

/**
 * A running model server.
 *
 * @example
 * const server: ModelServer = await serveModel(model, { token });
 * console.log(server.url); // http://127.0.0.1:43123
 */
export interface ModelServer {
  readonly url: string;
  readonly port: number;
  /** Stops accepting, aborts the calls in flight, closes every connection. */
  close(): Promise<void>;
}

function sameToken(given: string, expected: Buffer): boolean {
  const buffer = Buffer.from(given, 'utf8');
  return buffer.length === expected.length && timingSafeEqual(buffer, expected);
}

/**
 * Serves `model` over HTTP so that other processes and browsers can use it without its API
 * key: `POST /stream` with a `ChatRequest` as JSON and `authorization: Bearer <token>`
 * answers with Server-Sent Events, one `model-event` per `ModelEvent`, then `end` — or `error`
 * carrying the typed error (name, message, status, code, `retryable`, `retryAfterMs`; never
 * a body, a cause or a header). When the client goes away the upstream call is unsubscribed
 * (aborted). `GET /model` gives `{ provider, modelId }`. The server decides the model and
 * the billing: clients may set only the provider options in `allowProviderOptions` (default
 * none), no provider-hosted tools unless `allowProviderTools`, and `maxTokens` up to the cap.
 * Anyone with the token still spends your quota.
 *
 * @example
 * const server = await serveModel(openai('gpt-4o-mini'), { port: 8787, token: process.env.PROXY_TOKEN! });
 * // elsewhere: proxyModel({ url: 'http://127.0.0.1:8787', token })
 */
export async function serveModel(model: ChatModel, options: ServeModelOptions): Promise<ModelServer> {
  if (typeof options?.token !== 'string' || options.token.length === 0) {
    throw new AgentConfigError('serveModel needs a token: clients must send it as a bearer token.');
  }
  if (typeof model?.stream !== 'function') throw new AgentConfigError('serveModel needs a ChatModel.');
  if (options.maxTokens !== undefined && !(Number.isInteger(options.maxTokens) && options.maxTokens > 0)) {
    throw new AgentConfigError(
      `serveModel: maxTokens must be a positive integer (the most output tokens a call may ask for); got ${String(options.maxTokens)}.`,
    );
  }
  const allowed = options.allowProviderOptions;
  if (allowed !== undefined && !Object.values(allowed ?? {}).every((keys) => Array.isArray(keys))) {
    throw new AgentConfigError(
      "serveModel: allowProviderOptions lists option names per provider, e.g. { openai: ['user', 'seed'] }.",
    );
  }
  const expected = Buffer.from(options.token, 'utf8');
  const origins = new Set(options.allowOrigins ?? []);
  const maxBody = options.maxBodyBytes ?? 16 * 1024 * 1024;
  const pingMs = options.pingIntervalMs ?? 15_000;
  if (!(pingMs > 0)) {
    throw new AgentConfigError(
      `serveModel: pingIntervalMs must be a positive number of milliseconds (or Infinity for no pings); got ${String(pingMs)}.`,
    );
  }
  const calls = new Set<Subscription>();
  const sockets = new Set<Socket>();

  const cors = (req: IncomingMessage, res: ServerResponse): void => {
    const origin = req.headers.origin;
    if (origin === undefined) return;
    if (!origins.has(origin)) throw problem(403, `Origin ${origin} may not use this model proxy.`);
    res.setHeader('access-control-allow-origin', origin);
    res.setHeader('vary', 'origin');
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    cors(req, res);
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'authorization, content-type',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    const header = req.headers.authorization ?? '';
    if (!header.startsWith('Bearer ') || !sameToken(header.slice(7), expected)) {
      throw new HttpProblem(
        401,
        toWireError(new AuthError('The model proxy refused the token: send authorization: Bearer <token>.')),
      );
    }
    if (path === '/model' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ provider: model.provider, modelId: model.modelId }));
      return;
    }
    if (path !== '/stream' || req.method !== 'POST') {
      throw problem(404, 'Not found: the model proxy answers POST /stream and GET /model.');
    }
    const request = applyRequestPolicy(parseRequest(await readBody(req, maxBody)), options);
    const subscription = streamModelEvents(res, model, request, pingMs);
    calls.add(subscription);
    subscription.add(() => calls.delete(subscription));
    res.on('close', () => subscription.unsubscribe());
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const { status, wire } =
        error instanceof HttpProblem
          ? error
          : {
              status: 500,
              wire: toWireError(new ProviderError('The model proxy failed.', { retryable: false })),
            };
      if (res.headersSent) {
        res.end();
        return;
      }
      // A refused body may still be arriving: answer, then close once it is read.
      res.writeHead(status, {
        'content-type': 'application/json',
        ...(status === 413 && { connection: 'close' }),
      });
      res.end(JSON.stringify({ error: wire }));
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const call of [...calls]) call.unsubscribe();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
