import { parseArgs } from 'node:util';
import { startDashboard } from './dashboard-server.js';
import { providerModelFactory } from './provider-factory.js';

const USAGE = `Usage: node apps/dashboard/dist/main.js [--port 4319] [--host 127.0.0.1] [--runs 3] [--scripted]

A --host other than 127.0.0.1 / localhost / ::1 (e.g. 0.0.0.0) gets a random access token,
printed in the URL; requests without it are refused (401).

Serves a live dashboard of concurrent agent runs. Scripted runs by default; a real provider
when OPENAI_API_KEY or ANTHROPIC_API_KEY is set (RXAGENT_PROVIDER / RXAGENT_MODEL choose),
unless --scripted is given. Ctrl-C stops it.`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4319' },
      host: { type: 'string', default: '127.0.0.1' },
      runs: { type: 'string', default: '3' },
      scripted: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return void console.log(USAGE);
  const port = Number(values.port);
  const runs = Number(values.runs);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be 0…65535, got "${values.port}".`);
  if (!Number.isInteger(runs) || runs < 0)
    throw new Error(`--runs must be a whole number, got "${values.runs}".`);

  const modelFactory = values.scripted
    ? undefined
    : await providerModelFactory(process.env, { root: process.cwd() });
  const dashboard = await startDashboard({ host: values.host, port, modelFactory });
  console.log(
    `rxagent dashboard: ${dashboard.url}  (${modelFactory?.source ?? 'scripted'} runs; Ctrl-C to stop)`,
  );
  if (dashboard.token !== undefined) {
    console.log('Not a loopback address: every request needs the token in that URL (keep it private).');
  }
  for (let i = 0; i < runs; i++) dashboard.startRun();

  const stop = () => {
    console.log('\nclosing…');
    dashboard.close().then(
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

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  console.error(USAGE);
  process.exit(1);
});
