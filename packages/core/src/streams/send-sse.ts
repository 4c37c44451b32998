import type { Observable } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { RunHub } from './share-run.js';
import { SSE_HEADERS } from './sse-frames.js';
import { toSSEStream, type SSEStreamOptions } from './to-sse-stream.js';

/**
 * The part of Node's `http.ServerResponse` that `sendSSE` uses (Express's `res` is one too).
 *
 * @example
 * const res: SSEServerResponse = nodeResponse;
 */
export interface SSEServerResponse {
  writeHead(status: number, headers: Record<string, string>): unknown;
  write(chunk: Uint8Array): boolean;
  end(): unknown;
  on(event: 'close' | 'drain', listener: () => void): unknown;
  off(event: 'close' | 'drain', listener: () => void): unknown;
}

/**
 * Options of `sendSSE`: those of `toSSEStream`, and the request to read `Last-Event-ID` from.
 *
 * @example
 * sendSSE(res, hub, { request: req, keepAliveMs: 10_000 });
 */
export interface SendSSEOptions extends SSEStreamOptions {
  /** The incoming request: its `last-event-id` header is used when `lastEventId` is not given. */
  request?: { headers: Record<string, string | string[] | undefined> };
}

/**
 * Streams a run to a Node `http` response (or Express's) as Server-Sent Events, with
 * `toSSEStream`'s frames; honours back-pressure (`drain`) and cancels the run when the client
 * goes away. Resolves when the response has ended.
 *
 * @param res The response (`http.ServerResponse`, Express `res`).
 * @param source A run, or a `RunHub` (`shareRun`) so reconnects resume.
 * @param options `request` (for `Last-Event-ID`), `keepAliveMs`, `retryMs`, `scheduler`.
 * @return A Promise that resolves when the stream has ended or the client left.
 *
 * @example
 * http.createServer((req, res) => void sendSSE(res, runAgent({ model, prompt: 'hi' }), { request: req }));
 */
export async function sendSSE(
  res: SSEServerResponse,
  source: Observable<AgentEvent> | RunHub,
  options: SendSSEOptions = {},
): Promise<void> {
  const header = options.request?.headers['last-event-id'];
  const lastEventId = options.lastEventId ?? (Array.isArray(header) ? header[0] : header);
  const reader = toSSEStream(source, { ...options, lastEventId }).getReader();
  let closed = false;
  let wake: (() => void) | undefined;
  const onClose = () => {
    closed = true;
    void reader.cancel();
    wake?.();
  };
  res.on('close', onClose);
  res.writeHead(200, { ...SSE_HEADERS });
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done || closed) break;
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          res.on('drain', resolve);
        });
        res.off('drain', wake as () => void);
        wake = undefined;
        if (closed) break;
      }
    }
  } finally {
    res.off('close', onClose);
    if (!closed) {
      await reader.cancel();
      res.end();
    }
  }
}
