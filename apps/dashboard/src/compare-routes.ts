import type { ServerResponse } from 'node:http';
import { diffRuns, foldEvents, type RunLog } from '@rxagent/replay';
import { comparePage, type CompareSide } from './compare-page.js';
import type { DashboardForks } from './dashboard-forks.js';
import { HttpError, sendJson } from './http-json.js';

function runId(query: URLSearchParams, key: 'a' | 'b'): string {
  const id = query.get(key)?.trim();
  if (!id || id.length > 200) {
    throw new HttpError(400, `Name the two runs: /compare?a=run-1&b=run-2 (card ids; "${key}" is missing).`);
  }
  return id;
}

function sideOf(forks: DashboardForks, id: string, log: RunLog): CompareSide {
  return { id, label: forks.labelOf(id), messages: foldEvents(log.events.map((e) => e.event)).messages };
}

/**
 * The comparison routes: `GET /compare?a=run-1&b=run-2` (the page: `comparePage`) and
 * `GET /compare.json?a=…&b=…` (`diffRuns(a, b)` as JSON). Both runs must be recorded by this
 * dashboard (409 otherwise; 404 for an unknown run, 400 without both ids). Returns false when
 * the path is neither.
 *
 * @example
 * if (compareRoute(forks, ['compare.json'], 'GET', new URLSearchParams('a=run-1&b=run-2'), res)) return;
 */
export function compareRoute(
  forks: DashboardForks | undefined,
  path: readonly string[],
  method: string,
  query: URLSearchParams,
  res: ServerResponse,
): boolean {
  const [first] = path;
  if (path.length !== 1 || (first !== 'compare' && first !== 'compare.json')) return false;
  if (method !== 'GET') throw new HttpError(405, `Use GET here, not ${method}.`);
  if (!forks) throw new HttpError(404, 'This dashboard does not compare runs.');
  const a = runId(query, 'a');
  const b = runId(query, 'b');
  const logA = forks.logOf(a);
  const logB = forks.logOf(b);
  const diff = diffRuns(logA, logB);
  if (first === 'compare.json') {
    sendJson(res, 200, diff);
    return true;
  }
  const html = comparePage(sideOf(forks, a, logA), sideOf(forks, b, logB), diff);
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(html);
  return true;
}
