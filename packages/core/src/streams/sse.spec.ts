import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom, Observable, of, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { z } from 'zod';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { RateLimitError } from '../errors/provider-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import { RemoteRunError, SSEConnectionError } from '../results/result-errors.js';
import { withState } from '../state/with-state.js';
import { tool } from '../tools/tool.js';
import { fromSSE } from './from-sse.js';
import { sendSSE, type SSEServerResponse } from './send-sse.js';
import { shareRun, type RunHub } from './share-run.js';
import { createSSEParser } from './sse-parser.js';
import { formatSSEComment, formatSSEFrame } from './sse-frames.js';
import { sseFrames, sseResponse } from './to-sse-stream.js';

const start: AgentEvent = { type: 'agent-start', runId: 'r1' };
const turn: AgentEvent = { type: 'turn-start', step: 1 };

describe('sseFrames', () => {
  it('numbers the events, sends keep-alives while the run is quiet, and ends with run-end', () => {
    new TestScheduler((a, e) => expect(a).toEqual(e)).run(({ cold, expectObservable }) => {
      const e1 = cold('a 25ms b|', { a: start, b: turn });
      const frames = sseFrames(e1, { keepAliveMs: 10 });
      expectObservable(frames).toBe('a 9ms k 9ms k 5ms b (e|)', {
        a: `id: r1:1\ndata: ${JSON.stringify({ seq: 1, ...start })}\n\n`,
        k: ': keep-alive\n\n',
        b: `id: r1:2\ndata: ${JSON.stringify({ seq: 2, ...turn })}\n\n`,
        e: 'event: run-end\ndata: {}\n\n',
      });
    });
  });

  it('sends the run error as a typed run-error event (name, message, status; no body)', () => {
    new TestScheduler((a, e) => expect(a).toEqual(e)).run(({ cold, expectObservable }) => {
      const error = new RateLimitError('Too many requests', { status: 429, body: { secret: 'sk-live-123' } });
      const frames = sseFrames(cold('a---#', { a: start }, error), { keepAliveMs: 0, retryMs: 500 });
      expectObservable(frames).toBe('(ra)(x|)', {
        r: 'retry: 500\n\n',
        a: `id: r1:1\ndata: ${JSON.stringify({ seq: 1, ...start })}\n\n`,
        x: 'event: run-error\ndata: {"name":"RateLimitError","message":"Too many requests","status":429,"retryable":true}\n\n',
      });
    });
  });
});

describe('formatSSEFrame', () => {
  it('frames a named event with its data and the blank line that ends it', () => {
    expect(formatSSEFrame({ event: 'run', data: '{"id":"run-1"}' })).toBe(
      'event: run\ndata: {"id":"run-1"}\n\n',
    );
  });

  it('writes one data line per line of the payload, and the id', () => {
    expect(formatSSEFrame({ event: 'note', id: '7', data: 'a\nb\r\nc' })).toBe(
      'event: note\nid: 7\ndata: a\ndata: b\ndata: c\n\n',
    );
    expect(formatSSEFrame({ data: '' })).toBe('data: \n\n');
  });

  it('refuses an event name with a line break (it would forge fields)', () => {
    expect(() => formatSSEFrame({ event: 'run\ndata: x', data: '1' })).toThrow(
      /cannot contain a line break or NUL/,
    );
  });

  it('frames comments on one line', () => {
    expect(formatSSEComment('heart\nbeat')).toBe(': heart beat\n\n');
  });
});

describe('the SSE parser', () => {
  it('follows the wire rules: any line end, split chunks, comments, multi-line data, ids kept', () => {
    const seen: unknown[] = [];
    const retries: number[] = [];
    const parser = createSSEParser({ message: (m) => seen.push(m), retry: (ms) => retries.push(ms) });
    for (const chunk of [
      'id: 7\r',
      '\ndata: {"a"',
      ':1}\r\n\r\n: ping\n\nevent: x\ndata: l1\ndata: l2\r\rretry: 250\n',
      'data:no-space\n\n',
    ])
      parser.push(chunk);
    expect(seen).toEqual([
      { event: 'message', data: '{"a":1}', id: '7' },
      { event: 'x', data: 'l1\nl2', id: '7' },
      { event: 'message', data: 'no-space', id: '7' },
    ]);
    expect(retries).toEqual([250]);
  });
});

/** A real Node server; `handle` answers each request. */
async function serve(
  handle: (req: IncomingMessage, res: ServerResponse, n: number) => void,
): Promise<{ url: string; server: Server; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    handle(req, res, requests.length);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/events`, server, requests };
}

const close = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

/** Cuts the connection after `frames` writes, as a proxy or a network drop would. */
function cutAfter(res: ServerResponse, frames: number): SSEServerResponse {
  let written = 0;
  return {
    writeHead: (status, headers) => res.writeHead(status, headers),
    write: (chunk) => {
      if (++written > frames) {
        res.destroy();
        return true;
      }
      return res.write(chunk);
    },
    end: () => res.end(),
    on: (event, listener) => res.on(event, listener),
    off: (event, listener) => res.off(event, listener),
  };
}

const echo = tool({
  name: 'echo',
  description: 'echo',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

describe('a run over SSE (Node http, fetch)', () => {
  it('folds the same state on the client as on the server, across a dropped connection', async () => {
    const model = scriptedModel(
      [
        toolCallTurn({ name: 'echo', args: { text: 'hi' } }),
        textTurn('The echo said hi, all good.', { chunks: 6 }),
      ],
      { latency: 5 },
    );
    const server$ = withState(runAgent({ model, tools: [echo], prompt: 'say hi' }));
    const hub: RunHub = shareRun(server$.events$);
    const { url, server, requests } = await serve((req, res, n) => {
      void sendSSE(n === 1 ? cutAfter(res, 7) : res, hub, { request: req, keepAliveMs: 1000 });
    });
    try {
      const client = withState(fromSSE(url, { retryMs: 20 }));
      const events = await lastValueFrom(client.events$.pipe(toArray()));
      const serverState = server$.state$.value;
      expect(client.state$.value.phase).toBe('done');
      expect(client.state$.value.messages).toEqual(serverState.messages);
      expect(client.state$.value.usage).toEqual(serverState.usage);
      expect(client.state$.value.step).toBe(serverState.step);
      // No event twice, none missing: the ids the client saw run 1..n without a gap.
      expect(events.filter((e) => e.type === 'agent-start')).toHaveLength(1);
      expect(events[events.length - 1]?.type).toBe('agent-end');
      expect(requests.length).toBe(2);
      const runId = client.state$.value.runId as string;
      expect(requests[1]?.headers['last-event-id']).toBe(`${encodeURIComponent(runId)}:7`);
      expect(requests[0]?.headers['last-event-id']).toBeUndefined();
    } finally {
      await close(server);
    }
  });

  it("errors with RemoteRunError carrying the server's error", async () => {
    const { url, server } = await serve((req, res) => {
      void sendSSE(
        res,
        new Observable<AgentEvent>((s) => {
          s.next(start);
          s.error(new RateLimitError('Too many requests', { status: 429 }));
        }),
        { request: req },
      );
    });
    try {
      const seen: AgentEvent[] = [];
      const error = await new Promise((resolve) =>
        fromSSE(url).subscribe({ next: (e) => seen.push(e), error: resolve }),
      );
      expect(seen).toEqual([start]);
      expect(RemoteRunError.isInstance(error)).toBe(true);
      expect((error as RemoteRunError).remote).toMatchObject({ name: 'RateLimitError', status: 429 });
    } finally {
      await close(server);
    }
  });

  it('gives up with SSEConnectionError when the server is not an event stream', async () => {
    const { url, server } = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such run');
    });
    try {
      const error = await lastValueFrom(fromSSE(url)).catch((e: unknown) => e);
      expect(SSEConnectionError.isInstance(error)).toBe(true);
      expect((error as SSEConnectionError).status).toBe(404);
    } finally {
      await close(server);
    }
  });

  it('gives up after maxRetries drops in a row without a new event', async () => {
    const { url, server, requests } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(': nothing\n\n');
    });
    try {
      const error = await lastValueFrom(fromSSE(url, { retryMs: 1, maxRetries: 2 })).catch((e: unknown) => e);
      expect(SSEConnectionError.isInstance(error)).toBe(true);
      expect(requests).toHaveLength(3);
    } finally {
      await close(server);
    }
  });

  it('cancels the run on the server when the client unsubscribes', async () => {
    let torn = false;
    const run$ = new Observable<AgentEvent>((s) => {
      s.next(start);
      return () => (torn = true);
    });
    const { url, server } = await serve((req, res) => void sendSSE(res, run$, { request: req }));
    try {
      const first = await new Promise<AgentEvent>((resolve) => {
        const sub = fromSSE(url).subscribe((e) => {
          resolve(e);
          sub.unsubscribe();
        });
      });
      expect(first).toEqual(start);
      for (let i = 0; i < 50 && !torn; i++) await new Promise((r) => setTimeout(r, 10));
      expect(torn).toBe(true);
    } finally {
      await close(server);
    }
  });

  it('reads a Response made by sseResponse (fetch-style servers)', async () => {
    const response = sseResponse(of(start, turn));
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = await lastValueFrom(fromSSE(response).pipe(toArray()));
    expect(events).toEqual([start, turn]);
  });
});
