import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom, Observable, Subject, toArray, VirtualTimeScheduler } from 'rxjs';
import { scriptedModel, textTurn } from '@rxagent/testing';
import type { AgentEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import { withState } from '../state/with-state.js';
import { fromSSE } from './from-sse.js';
import { sendSSE, type SSEServerResponse } from './send-sse.js';
import { shareRun } from './share-run.js';
import { SSE_HEADERS } from './sse-frames.js';
import { toSSEStream } from './to-sse-stream.js';
import {
  SSEIdleTimeoutError,
  SSELineTooLongError,
  SSEReaderTooSlowError,
  SSEResumeRefusedError,
  WireFormatError,
  WireSequenceError,
} from './wire-errors.js';

async function serve(handle: (req: IncomingMessage, res: ServerResponse, n: number) => void) {
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

/** Cuts the connection after `frames` writes, as a network drop would. */
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

const errorOf = (run$: Observable<unknown>) =>
  lastValueFrom(run$).then(
    () => undefined,
    (e: unknown) => e,
  );

/** An SSE body written by hand (a corrupt or foreign server). */
const raw =
  (body: string, after: 'end' | 'stall' = 'end') =>
  (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, SSE_HEADERS);
    res.write(body);
    if (after === 'end') res.end();
  };

describe('fromSSE: resume, never rerun', () => {
  it("refuses to resume a plain run (the README's sendSSE server): one run, a typed error", async () => {
    let runs = 0;
    const { url, server, requests } = await serve((req, res, n) => {
      // Paced, so the first frames reach the client before the cut (as on a real network).
      const model = scriptedModel([textTurn('A story told once and only once.', { chunks: 8 })], {
        latency: 5,
      });
      const run$ = new Observable<AgentEvent>((s) => {
        runs++;
        return runAgent({ model, prompt: 'Tell me a story' }).subscribe(s);
      });
      void sendSSE(n === 1 ? cutAfter(res, 4) : res, run$, { request: req });
    });
    try {
      const seen: AgentEvent[] = [];
      const error = await new Promise((resolve) =>
        fromSSE(url, { retryMs: 5 }).subscribe({
          next: (e) => seen.push(e),
          error: resolve,
          complete: () => resolve(undefined),
        }),
      );
      expect(SSEResumeRefusedError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('shareRun');
      expect(requests).toHaveLength(2);
      expect(requests[1]?.headers['last-event-id']).toMatch(/:4$/);
      expect(runs).toBe(1);
      expect(seen.filter((e) => e.type === 'agent-start')).toHaveLength(1);
    } finally {
      await close(server);
    }
  });

  it('resumes a shared run after Last-Event-ID, and never delivers an event twice', async () => {
    const model = scriptedModel([textTurn('Resumed without a seam, every delta once.', { chunks: 10 })], {
      latency: 2,
    });
    const server$ = withState(runAgent({ model, prompt: 'go' }));
    const hub = shareRun(server$.events$);
    const { url, server, requests } = await serve((req, res, n) => {
      // The second connection ignores Last-Event-ID (a naive server): from 1 again.
      void sendSSE(n === 1 ? cutAfter(res, 6) : res, hub, n === 2 ? {} : { request: req });
    });
    try {
      const client = withState(fromSSE(url, { retryMs: 5 }));
      const events = await lastValueFrom(client.events$.pipe(toArray()));
      expect(requests).toHaveLength(2);
      expect(events.filter((e) => e.type === 'agent-start')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'message-end')).toHaveLength(2);
      expect(client.state$.value.messages).toEqual(server$.state$.value.messages);
      expect(
        events
          .filter((e) => e.type === 'message-update')
          .map((e) => e.delta.text)
          .join(''),
      ).toBe('Resumed without a seam, every delta once.');
    } finally {
      hub.stop();
      await close(server);
    }
  });

  it('refuses a reconnect answered by another run', async () => {
    const { url, server } = await serve((_req, res, n) => {
      res.writeHead(200, SSE_HEADERS);
      res.write(`id: run-${n}:1\ndata: {"seq":1,"type":"agent-start","runId":"run-${n}"}\n\n`);
      if (n === 1) res.destroy();
      else res.end();
    });
    try {
      const error = await errorOf(fromSSE(url, { retryMs: 1 }));
      expect(SSEResumeRefusedError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('"run-2"');
    } finally {
      await close(server);
    }
  });

  it('a hub refuses an id of another run or of an event it never sent', async () => {
    const hub = shareRun(new Subject<AgentEvent>());
    hub.join().subscribe();
    expect(SSEResumeRefusedError.isInstance(await errorOf(hub.join('someone-else:3')))).toBe(true);
    expect(SSEResumeRefusedError.isInstance(await errorOf(hub.join('4')))).toBe(true);
    hub.stop();
  });

  it('counts a silent connection as dropped after idleTimeoutMs, then gives up with SSEIdleTimeoutError', async () => {
    const { url, server, requests } = await serve(raw(': hello\n\n', 'stall'));
    const scheduler = new VirtualTimeScheduler();
    const advanceTo = (frame: number) => {
      scheduler.maxFrames = frame;
      scheduler.flush();
    };
    try {
      let error: unknown;
      fromSSE(url, { scheduler, idleTimeoutMs: 60_000, retryMs: 10, maxRetries: 1 }).subscribe({
        error: (e: unknown) => (error = e),
      });
      await until(() => requests.length === 1);
      advanceTo(59_999);
      expect(error).toBeUndefined();
      advanceTo(60_010); // silent for 60 s: dropped; 10 ms later, the reconnect
      await until(() => requests.length === 2);
      advanceTo(120_010);
      await until(() => error !== undefined);
      expect(SSEIdleTimeoutError.isInstance(error)).toBe(true);
      expect(requests[1]?.headers['last-event-id']).toBeUndefined();
    } finally {
      await close(server);
    }
  });
});

describe('fromSSE: bad input', () => {
  const cases: [string, string, (e: unknown) => boolean][] = [
    [
      'data that is not JSON',
      'id: 1\ndata: {"seq":1,"type":"agent-st\n\n',
      (e) => WireFormatError.isInstance(e),
    ],
    [
      'a sequence gap',
      'data: {"seq":1,"type":"turn-start","step":1}\n\ndata: {"seq":3,"type":"turn-start","step":2}\n\n',
      (e) => WireSequenceError.isInstance(e),
    ],
    ['a line over the limit', `data: ${'x'.repeat(5000)}`, (e) => SSELineTooLongError.isInstance(e)],
  ];
  it.each(cases)('%s is a typed error', async (_name, body, check) => {
    const { url, server } = await serve(raw(body, 'stall'));
    try {
      expect(check(await errorOf(fromSSE(url, { maxLineLength: 1000 })))).toBe(true);
    } finally {
      await close(server);
    }
  });

  it('skips an event type it does not know (a newer server) and reads on', async () => {
    const body =
      'data: {"seq":1,"type":"turn-start","step":1}\n\n' +
      'data: {"seq":2,"type":"hologram","beams":3}\n\n' +
      'data: {"seq":3,"type":"warning","message":"still here"}\n\nevent: run-end\ndata: {}\n\n';
    const { url, server } = await serve(raw(body));
    try {
      expect(await lastValueFrom(fromSSE(url).pipe(toArray()))).toEqual([
        { type: 'turn-start', step: 1 },
        { type: 'warning', message: 'still here' },
      ]);
    } finally {
      await close(server);
    }
  });
});

describe('toSSEStream: bounded back-pressure', () => {
  it('cuts a slow reader off past maxBufferedBytes with a last error; other readers get the whole run', async () => {
    const source = new Subject<AgentEvent>();
    const hub = shareRun(source, { replay: 10_000 });
    const slow = toSSEStream(hub, { keepAliveMs: 0, maxBufferedBytes: 10_000 });
    const fast = toSSEStream(hub, { keepAliveMs: 0 });
    const fastReader = fast.getReader();
    source.next({ type: 'agent-start', runId: 'r1' });
    for (let i = 0; i < 100; i++) source.next({ type: 'warning', message: 'x'.repeat(1000) });
    expect(hub.watchers).toBe(1); // the slow reader was cut off and left the hub
    source.complete();
    const fastText = await readAll(fastReader);
    expect(fastText.match(/"type":"warning"/g)).toHaveLength(100);
    expect(fastText.endsWith('event: run-end\ndata: {}\n\n')).toBe(true);
    const error = await errorOf(fromSSE(new Response(slow, { headers: SSE_HEADERS })));
    expect(SSEReaderTooSlowError.isInstance(error)).toBe(true);
  });
});

async function readAll(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}
