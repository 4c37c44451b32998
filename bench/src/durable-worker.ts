import { startWorker } from '@rxagent/durable';
import { durableBenchAgent } from './durable-agent.js';

// A durable worker in its own process, for the runs-per-second benchmark
// (`bench/dist/durable-worker.js '<settings as JSON>'`). It prints "ready <id>" once it takes
// runs and stops cleanly on SIGTERM.

interface Settings {
  databaseUrl: string;
  workerId: string;
  perWorker?: number;
}

const settings = JSON.parse(process.argv[2] ?? '{}') as Settings;
const worker = await startWorker({
  databaseUrl: settings.databaseUrl,
  workerId: settings.workerId,
  ...durableBenchAgent(),
  ...(settings.perWorker !== undefined ? { concurrency: { perWorker: settings.perWorker } } : {}),
});
process.stdout.write(`ready ${worker.workerId}\n`);
process.once('SIGTERM', () => void worker.stop().finally(() => process.exit(0)));
