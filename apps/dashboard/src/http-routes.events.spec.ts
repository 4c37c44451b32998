import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createRequestHandler } from './http-routes.js';
import { RunRegistry } from './run-registry.js';
import type { SseChannel } from './sse-channel.js';

// Slow readers on /events: real sockets on 127.0.0.1 that never read what the server sends.

let server: Server;
let port: number;
let channels: Set<SseChannel>;
const sockets: Socket[] = [];

async function start(maxClients: number, maxQueuedBytes: number): Promise<void> {
  channels = new Set();
  server = createServer(
    createRequestHandler({
      registry: new RunRegistry(),
      startRun: () => 'run-1',
      page: '',
      scenarios: [],
      source: 'test',
      sse: { heartbeatMs: 0, maxQueuedBytes },
      channels,
      maxClients,
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const channel of channels) channel.close();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
});

/** Opens `GET /events` and never reads the answer (the socket is paused). */
function stalledClient(): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  socket.pause();
  sockets.push(socket);
  return socket;
}

/** Lets the event loop turn until `predicate` holds (no clock involved). */
async function until(predicate: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !predicate(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(predicate()).toBe(true);
}

describe('GET /events with slow clients', () => {
  it('keeps each stalled client within its bound and closes it once it falls behind', async () => {
    const bound = 64 * 1024;
    await start(8, bound);
    const clients = [stalledClient(), stalledClient(), stalledClient()];
    await until(() => channels.size === 3);
    const open = [...channels];
    const ended = clients.map((socket) => new Promise((resolve) => socket.once('close', resolve)));
    const payload = { text: 'x'.repeat(16 * 1024) };
    let mostQueued = 0;
    for (let i = 0; i < 5000 && open.some((c) => !c.closed); i++) {
      for (const channel of open) {
        channel.send('run', payload);
        mostQueued = Math.max(mostQueued, channel.queuedBytes);
      }
      if (i % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(open.every((c) => c.closed)).toBe(true);
    expect(mostQueued).toBeGreaterThan(0);
    expect(mostQueued).toBeLessThanOrEqual(bound);
    expect(channels.size).toBe(0);
    for (const socket of clients) socket.resume();
    await Promise.all(ended);
  });

  it('answers 503 past the maximum number of clients, and 200 again once one leaves', async () => {
    await start(2, 64 * 1024);
    const first = stalledClient();
    stalledClient();
    await until(() => channels.size === 2);
    const refused = await fetch(`http://127.0.0.1:${port}/events`);
    expect(refused.status).toBe(503);
    expect(((await refused.json()) as { error: string }).error).toMatch(/Too many event streams/);
    first.destroy();
    await until(() => channels.size === 1);
    const controller = new AbortController();
    const accepted = await fetch(`http://127.0.0.1:${port}/events`, { signal: controller.signal });
    expect(accepted.status).toBe(200);
    controller.abort();
  });
});
