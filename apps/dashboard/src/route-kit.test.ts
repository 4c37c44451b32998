import { startDashboard, type Dashboard } from './dashboard-server.js';
import type { ScriptedTiming } from './paced-model.js';
import { scriptedRunFactory } from './scripted-runs.js';

// What the dashboard's route specs share: a dashboard on the scripted runs, paced to finish in
// a few milliseconds, and a JSON POST to it.

/** The scripted runs' pace in the route specs: a few milliseconds a run. */
export const FAST: ScriptedTiming = { firstEventMs: [0, 2], deltaMs: [0, 1], toolMs: [2, 6] };

/** A dashboard on 127.0.0.1 whose runs are the scripted ones at the `FAST` pace. */
export function scriptedDashboard(): Promise<Dashboard> {
  return startDashboard({ modelFactory: scriptedRunFactory({ timing: FAST }), onError: () => undefined });
}

/** POSTs `body` as JSON (or with the `headers` given) to `path` of `dashboard`. */
export function post(
  dashboard: Dashboard,
  path: string,
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
): Promise<Response> {
  return fetch(new URL(path, dashboard.url), { method: 'POST', headers, body: JSON.stringify(body) });
}
