import { startDashboard, type Dashboard } from '@rxagent/dashboard';
import { connect, type Socket } from 'node:net';
import { backToBack, median, medianFigure, medianRatio, type RoundsOptions } from './measure.js';

/** POST latency of the dashboard while its runs stream, with no client and with slow ones. */
export interface DashboardPostResult {
  slowClients: number;
  /** Runs streaming in the background while the POSTs are timed. */
  backgroundRuns: number;
  /** Median ms of a `POST /runs` with no `/events` client. */
  idleMs: number;
  /** Median ms with `slowClients` clients attached that never read. */
  loadedMs: number;
  /** Median of the rounds' loaded ÷ idle. */
  ratio: number;
  rounds: number;
}

/** An `/events` client that reads up to its first event (the page's first state), then never reads again. */
function slowClient(url: URL): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      socket.write(`GET /events HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\n\r\n`);
    });
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('latin1');
      if (!seen.includes('\ndata:')) return;
      socket.off('data', onData);
      socket.pause(); // attached, and from now on as slow as a reader can be
      resolve(socket);
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

async function postLatencies(dashboard: Dashboard, posts: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < posts; i++) {
    const start = performance.now();
    const response = await fetch(new URL('runs', dashboard.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ scenario: 'chat' }),
    });
    const { id } = (await response.json()) as { id: string };
    times.push(performance.now() - start);
    // Aborted at once (untimed), so the background load stays the same from round to round.
    await (await fetch(new URL(`runs/${id}/abort`, dashboard.url), { method: 'POST' })).text();
  }
  return median(times);
}

/**
 * `POST /runs` latency of a dashboard (scripted runs, paced like real models) while
 * `backgroundRuns` long runs stream, with no `/events` client and with `slowClients` that never
 * read, back to back in each round (issue 32: serializing each update once per client made it
 * rise about 6× with 31).
 *
 * @example
 * const r = await benchDashboardPost({ slowClients: 31 });
 */
export async function benchDashboardPost(
  options: RoundsOptions & { slowClients?: number; backgroundRuns?: number; posts?: number } = {},
): Promise<DashboardPostResult> {
  const slowClients = options.slowClients ?? 31;
  const backgroundRuns = options.backgroundRuns ?? 4;
  const dashboard = await startDashboard({ maxClients: slowClients + 1, onError: () => undefined });
  try {
    for (let i = 0; i < backgroundRuns; i++) dashboard.startRun(undefined, { scenario: 'long' });
    const url = new URL(dashboard.url);
    const rounds = await backToBack(
      {
        idle: () => postLatencies(dashboard, options.posts ?? 10),
        loaded: async () => {
          const sockets = await Promise.all(Array.from({ length: slowClients }, () => slowClient(url)));
          try {
            return await postLatencies(dashboard, options.posts ?? 10);
          } finally {
            for (const socket of sockets) socket.destroy();
          }
        },
      },
      options,
    );
    return {
      slowClients,
      backgroundRuns,
      idleMs: medianFigure(rounds, 'idle'),
      loadedMs: medianFigure(rounds, 'loaded'),
      ratio: medianRatio(rounds, 'loaded', 'idle'),
      rounds: rounds.length,
    };
  } finally {
    await dashboard.close();
  }
}
