import { fileURLToPath } from 'node:url';
import { bundlePageScript } from './example-page.js';
import { startHonoServer } from './hono-app.js';
import { startNodeServer } from './node-server.js';
import { RunHubs } from './run-hubs.js';
import { scriptedRun } from './scripted-run.js';

// Both servers over one set of runs: create a run on either, watch it on both.
const hubs = new RunHubs((prompt) => scriptedRun(prompt, 150), { lingerMs: 30_000 });
// The page's script, bundled once from the sources (src/browser/page.ts) for both servers.
const pageScript = bundlePageScript(fileURLToPath(new URL('../src/browser/page.ts', import.meta.url)));
const node = await startNodeServer(hubs, { port: 8787, pageScript });
const hono = await startHonoServer(hubs, { port: 8788, pageScript });
console.log(`plain Node: ${node.url}/   Hono: ${hono.url}/   (open either in a browser)`);
console.log(
  `curl -XPOST ${node.url}/runs -d '{"prompt":"hi"}'   then   curl -N ${node.url}/runs/run-1/events`,
);
process.on('SIGINT', () => {
  hubs.stopAll();
  void Promise.all([node.close(), hono.close()]).then(() => process.exit(0));
});
