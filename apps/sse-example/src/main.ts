import { fileURLToPath } from 'node:url';
import { exampleAGUIAgent } from './ag-ui-agent.js';
import { chatRun } from './chat-run.js';
import { bundlePageScript } from './example-page.js';
import { startHonoServer } from './hono-app.js';
import { startNodeServer } from './node-server.js';
import { RunHubs } from './run-hubs.js';
import { pageAssets, srcDirOf } from './pages.js';
import { scriptedRun } from './scripted-run.js';

// Both servers over one set of runs: create a run on either, watch it on both.
const hubs = new RunHubs((prompt) => scriptedRun(prompt, 150), { lingerMs: 30_000 });
// The run page's script, bundled once from the sources (src/browser/page.ts) for both servers.
const pageScript = bundlePageScript(fileURLToPath(new URL('../src/browser/page.ts', import.meta.url)));
const node = await startNodeServer(hubs, { port: 8787, pageScript });
// The Hono server also serves the two chat front ends: the AI SDK's useChat and an AG-UI client.
const hono = await startHonoServer(hubs, {
  port: 8788,
  pageScript,
  chat: (prompt, approver) => chatRun(prompt, approver, 60),
  agUI: exampleAGUIAgent(60),
  assets: await pageAssets(srcDirOf(import.meta.url)),
});
console.log(`plain Node: ${node.url}/   Hono: ${hono.url}/   (open either in a browser)`);
console.log(`chat pages on Hono: useChat at ${hono.url}/chat, AG-UI at ${hono.url}/ag-ui`);
console.log(
  `curl -XPOST ${node.url}/runs -d '{"prompt":"hi"}'   then   curl -N ${node.url}/runs/run-1/events`,
);
process.on('SIGINT', () => {
  hubs.stopAll();
  void Promise.all([node.close(), hono.close()]).then(() => process.exit(0));
});
