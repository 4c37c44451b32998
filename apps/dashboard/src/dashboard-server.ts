import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { Agent } from '@rxagent/core';
import { memoryLog, recordingInstrument } from '@rxagent/replay';
import { newAccessToken } from './access-token.js';
import { DashboardForks } from './dashboard-forks.js';
import { durableRunAgent, type DashboardDurableRuns } from './durable-run-agent.js';
import { HttpError } from './http-json.js';
import { createRequestHandler } from './http-routes.js';
import { dashboardPage } from './page.js';
import type { ModelFactory } from './run-factory.js';
import { RunRecordings } from './run-recordings.js';
import { RunRegistry, type DashboardAgent } from './run-registry.js';
import { scriptedRunFactory } from './scripted-runs.js';
import type { SseChannel } from './sse-channel.js';
import { TimelineStore } from './timeline-store.js';

/**
 * Options of `startDashboard`.
 *
 * @example
 * const options: DashboardOptions = { port: 0, throttleMs: 50, modelFactory: scriptedRunFactory({ seed: 7 }) };
 */
export interface DashboardOptions {
  /**
   * Interface to listen on (default `127.0.0.1`). Any other than `127.0.0.1`, `localhost` or
   * `::1` (e.g. `0.0.0.0`) requires an access token on every request: `token`, or a random one.
   */
  host?: string;
  /** The access token of a non-loopback host (default: 32 random bytes); ignored on loopback. */
  token?: string;
  /** At most this many `/events` clients at once; more get 503 (default 32). */
  maxClients?: number;
  /** Bytes kept for an `/events` client that does not read before it is closed (default 1 MiB). */
  maxQueuedBytes?: number;
  /** Port (default 0: a free one; read it from `url`). */
  port?: number;
  /** Clock of the throttle, the heartbeats and the runs it starts (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
  /** Builds the runs of `startRun` / `POST /runs` (default: `scriptedRunFactory()`). */
  modelFactory?: ModelFactory;
  /** State pushes of a run are coalesced within this window (default 50 ms). */
  throttleMs?: number;
  /** Interval of the SSE heartbeat comments (default 15 000 ms). */
  heartbeatMs?: number;
  title?: string;
  /** Where failures of the runs' listeners are reported (default `console.error`). */
  onError?: (error: unknown, context: string) => void;
  /**
   * A client of `@rxagent/durable` (`durableRuns({ databaseUrl })`): durable runs can then be
   * shown by id (`attachDurable`, `POST /durable-runs`, the page's form), their approvals and
   * _Abort_ reaching `approve` / `reject` / `cancel`. The dashboard does not close it.
   */
  durable?: DashboardDurableRuns;
}

/**
 * A running dashboard.
 *
 * @example
 * const { url, startRun, close }: Dashboard = await startDashboard();
 */
export interface Dashboard {
  /** `http://host:port/`, with `?token=…` when the host is not loopback. */
  readonly url: string;
  /** The access token every request must carry (only when the host is not loopback). */
  readonly token?: string;
  readonly registry: RunRegistry;
  /** The runs' timelines (kept until a run is removed). */
  readonly timelines: TimelineStore;
  /** Forks and compares the runs it started (their recordings, kept until a run is removed). */
  readonly forks: DashboardForks;
  /** Shows an agent you run yourself (not aborted on `close`); returns its run id. */
  addAgent(agent: DashboardAgent, label: string): string;
  /** Starts a run from the model factory (a scenario name may pick the script); returns its id. */
  startRun(prompt?: string, options?: { scenario?: string }): string;
  /**
   * Shows a durable run (needs the `durable` option), from its start, live; returns its card's
   * id, the same one while that card stays. Rejects with `HttpError` 404 for an unknown run.
   */
  attachDurable(runId: string): Promise<string>;
  /** Aborts the runs it started, ends the event streams and stops the server. */
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * Starts the dashboard server: the page at `/`, live updates over SSE at `/events`, and the
 * routes to start runs, abort them and answer approvals.
 *
 * @example
 * const dashboard = await startDashboard({ port: 4319 });
 * console.log(`open ${dashboard.url}`);
 * dashboard.startRun();                               // a scripted run (or the modelFactory's)
 * const id = dashboard.addAgent(myAgent, 'my agent'); // any Agent, prompted by you
 * await myAgent.prompt('What is in this folder?');
 * await dashboard.close();
 */
export async function startDashboard(options: DashboardOptions = {}): Promise<Dashboard> {
  const host = options.host ?? '127.0.0.1';
  const scheduler = options.scheduler ?? asyncScheduler;
  const factory = options.modelFactory ?? scriptedRunFactory();
  const onError = options.onError ?? ((error, context) => console.error(`[dashboard] ${context}:`, error));
  const registry = new RunRegistry({ scheduler, throttleMs: options.throttleMs });
  const timelines = new TimelineStore(registry, { scheduler });
  const recordings = new RunRecordings(registry);
  const forks = new DashboardForks({ registry, recordings, factory, scheduler });
  const channels = new Set<SseChannel>();
  const allowedHosts = new Set<string>();
  const loopback = LOOPBACK.has(host);
  const token = loopback ? undefined : (options.token ?? newAccessToken());
  let started = 0;

  const startRun = (prompt?: string, runOptions: { scenario?: string } = {}): string => {
    const index = started++;
    const request = { index, prompt, scenario: runOptions.scenario };
    const recipe = factory({ ...request, scheduler });
    // Recorded (in memory) so that it can be forked from any step and compared with its forks.
    const log = memoryLog();
    const agent = new Agent({
      model: recipe.model,
      tools: recipe.tools,
      system: recipe.system,
      maxSteps: recipe.maxSteps,
      contextManager: recipe.contextManager,
      prices: recipe.prices,
      scheduler,
      onError,
      instrument: recordingInstrument(log),
    });
    const label = recipe.label ?? `${recipe.model.modelId} #${index + 1}`;
    const id = registry.add(agent, label, { owned: true, origin: { forkable: true } });
    recordings.set(id, { log, request });
    // A failed run is not lost: its error is in the state (phase `error`) and on its card.
    agent.prompt(recipe.prompt).catch(() => undefined);
    return id;
  };

  const durableCards = new Map<string, string>();
  registry.updates$.subscribe((update) => {
    if (update.type !== 'removed') return;
    for (const [runId, id] of durableCards) if (id === update.id) durableCards.delete(runId);
  });
  const attachDurable = async (runId: string): Promise<string> => {
    const durable = options.durable;
    if (!durable) throw new HttpError(404, 'This dashboard has no durable runs: pass the `durable` option.');
    const known = durableCards.get(runId);
    if (known !== undefined) return known;
    let status: string | undefined;
    try {
      status = await durable.status(runId);
    } catch (error) {
      throw new HttpError(503, `Could not look up durable run "${runId}": ${(error as Error).message}`);
    }
    if (status === undefined)
      throw new HttpError(404, `No durable run "${runId}": use the id startRun returned.`);
    // Another request may have attached it while the status was read.
    const raced = durableCards.get(runId);
    if (raced !== undefined) return raced;
    const id = registry.add(durableRunAgent(durable, runId), `durable ${runId}`);
    durableCards.set(runId, id);
    return id;
  };

  const server = createServer(
    createRequestHandler({
      registry,
      startRun: (input) => startRun(input.prompt, { scenario: input.scenario }),
      page: dashboardPage(options.title),
      scenarios: factory.scenarios ?? [],
      source: factory.source ?? 'custom',
      sse: { scheduler, heartbeatMs: options.heartbeatMs, maxQueuedBytes: options.maxQueuedBytes },
      channels,
      allowedHosts: loopback ? allowedHosts : undefined,
      accessToken: token,
      maxClients: options.maxClients,
      timelines,
      forks,
      ...(options.durable ? { attachDurable } : {}),
    }),
  );
  const port = await listen(server, options.port ?? 0, host);
  for (const name of ['127.0.0.1', 'localhost', '[::1]']) allowedHosts.add(`${name}:${port}`);
  const query = token === undefined ? '' : `?token=${encodeURIComponent(token)}`;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/${query}`;

  let closing: Promise<void> | undefined;
  return {
    url,
    token,
    registry,
    timelines,
    forks,
    addAgent: (agent, label) => registry.add(agent, label),
    startRun,
    attachDurable,
    close: () => {
      closing ??= (async () => {
        // Owned runs are in-process Agents: their abort is synchronous and cannot fail.
        for (const entry of registry.entries()) if (entry.owned) void entry.agent.abort();
        timelines.close();
        recordings.close();
        registry.close();
        for (const channel of channels) channel.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}
