#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { startDashboard } from './dashboard-server.js';
import { followDurableRuns, type DurableRunListing } from './durable-follow.js';
import type { DashboardDurableRuns } from './durable-run-agent.js';
import { providerModelFactory } from './provider-factory.js';

const USAGE = `Usage: rxagent-dashboard [--port 4319] [--host 127.0.0.1] [--runs 3] [--scripted]
                         [--durable <databaseUrl> [--attach <runId>]...]

A --host other than 127.0.0.1 / localhost / ::1 (e.g. 0.0.0.0) gets a random access token,
printed in the URL; requests without it are refused (401).

--durable <databaseUrl> connects to the PostgreSQL database of @rxagent/durable's workers and
shows, live, every durable run queued or executing and every one started from then on,
wherever it runs (the database is listed every second); its Approve / Reject / Abort reach the
run. An older run is shown by its id: the page's "Show durable run", or --attach <runId> at
launch (repeat it for more). With --durable, --runs defaults to 0. The URL (and any password in
it) is never printed. It needs @rxagent/durable installed next to the dashboard.

Serves a live dashboard of concurrent agent runs. Scripted runs by default; a real provider
when OPENAI_API_KEY or ANTHROPIC_API_KEY is set (RXAGENT_PROVIDER / RXAGENT_MODEL choose),
unless --scripted is given. Ctrl-C stops it.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4319' },
      host: { type: 'string', default: '127.0.0.1' },
      runs: { type: 'string' },
      scripted: { type: 'boolean', default: false },
      durable: { type: 'string' },
      attach: { type: 'string', multiple: true, default: [] },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return void console.log(USAGE);
  const port = Number(values.port);
  const runs = Number(values.runs ?? (values.durable === undefined ? '3' : '0'));
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0…65535, got "${values.port}".`);
  if (!Number.isInteger(runs) || runs < 0)
    throw new Error(`--runs must be a whole number, got "${values.runs}".`);

  if (values.attach.length > 0 && values.durable === undefined) {
    throw new Error('--attach needs --durable <databaseUrl>: the database of the durable workers.');
  }

  const modelFactory = values.scripted
    ? undefined
    : await providerModelFactory(process.env, { root: process.cwd() });
  const durable = values.durable === undefined ? undefined : await connectDurable(values.durable);
  const dashboard = await startDashboard({ host: values.host, port, modelFactory, durable: durable?.runs });
  console.log(
    `rxagent dashboard: ${dashboard.url}  (${modelFactory?.source ?? 'scripted'} runs; Ctrl-C to stop)`,
  );
  if (dashboard.token !== undefined) {
    console.log('Not a loopback address: every request needs the token in that URL (keep it private).');
  }
  for (let i = 0; i < runs; i++) dashboard.startRun();
  for (const runId of values.attach)
    console.log(`durable ${runId} → card ${await dashboard.attachDurable(runId)}`);
  const following =
    durable &&
    followDurableRuns(dashboard, durable.list, {
      onError: (error) => console.error(`[dashboard] durable runs: ${(error as Error).message}`),
    });
  if (durable)
    console.log('Following durable runs (older ones: "Show durable run" in the page, or --attach).');

  const stop = () => {
    console.log('\nclosing…');
    following?.unsubscribe();
    dashboard
      .close()
      .then(() => durable?.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error);
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** The durable client and lister, loaded only with --durable (DBOS and pg stay unloaded otherwise). */
async function connectDurable(databaseUrl: string): Promise<{
  runs: DashboardDurableRuns;
  list: () => Promise<DurableRunListing[]>;
  close(): Promise<void>;
}> {
  const [{ durableRuns }, { durableRunLister }] = await Promise.all([
    import('@rxagent/durable').catch((error: unknown) => {
      const { code } = (error ?? {}) as { code?: unknown };
      if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
      throw new Error(
        '--durable needs @rxagent/durable, an optional peer of the dashboard: install it next to it (npm install @rxagent/durable).',
      );
    }),
    import('./durable-run-list.js'),
  ]);
  const runs = await durableRuns({ databaseUrl });
  const lister = durableRunLister(runs);
  return {
    runs,
    list: () => lister.list(),
    close: () => runs.close(),
  };
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  console.error(USAGE);
  process.exit(1);
});
