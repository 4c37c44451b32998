import { exampleAGUIAgent } from './ag-ui-agent.js';
import { chatRun } from './chat-run.js';
import { startHonoServer } from './hono-app.js';
import { startNodeServer } from './node-server.js';
import { RunHubs } from './run-hubs.js';
import { pageAssets, srcDirOf } from './pages.js';
import { scriptedRun } from './scripted-run.js';

// Both servers over one set of runs: create a run on either, watch it on both.
const hubs = new RunHubs((prompt) => scriptedRun(prompt, 150), { lingerMs: 30_000 });
const node = await startNodeServer(hubs, { port: 8787 });
// The Hono server also serves the two chat front ends: the AI SDK's useChat and an AG-UI client.
const hono = await startHonoServer(hubs, {
  port: 8788,
  chat: (prompt, approver) => chatRun(prompt, approver, 60),
  agUI: exampleAGUIAgent(60),
  assets: await pageAssets(srcDirOf(import.meta.url)),
});
console.log(`plain Node: ${node.url}   Hono: ${hono.url}`);
console.log(`pages: ${hono.url}/ (useChat at ${hono.url}/chat, AG-UI at ${hono.url}/ag-ui)`);
console.log(
  `curl -XPOST ${node.url}/runs -d '{"prompt":"hi"}'   then   curl -N ${node.url}/runs/run-1/events`,
);
process.on('SIGINT', () => {
  hubs.stopAll();
  void Promise.all([node.close(), hono.close()]).then(() => process.exit(0));
});
