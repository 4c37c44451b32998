export { RunHubs } from './run-hubs.js';
export type { StartRun } from './run-hubs.js';
export { nodeRunRoutes, startNodeServer } from './node-server.js';
export { honoRunApp, startHonoServer } from './hono-app.js';
export { scriptedRun } from './scripted-run.js';
export { bundlePageScript, EXAMPLE_PAGE } from './example-page.js';
