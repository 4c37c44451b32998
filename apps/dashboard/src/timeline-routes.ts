import type { ServerResponse } from 'node:http';
import { HttpError, sendJson } from './http-json.js';
import { TIMELINE_SCRIPT } from './timeline-script.js';
import { TIMELINE_STYLES } from './timeline-styles.js';
import type { TimelineStore } from './timeline-store.js';

/**
 * The timeline's routes: `GET /timeline.js`, `GET /timeline.css`, `GET /runs/:id/timeline`
 * (rows and totals) and `GET /runs/:id/timeline/:rowId` (one row in full). Returns false when
 * the path is none of them.
 *
 * @example
 * if (await timelineRoute(store, ['runs', 'run-1', 'timeline'], 'GET', res)) return;
 */
export function timelineRoute(
  store: TimelineStore | undefined,
  path: readonly string[],
  method: string,
  res: ServerResponse,
): boolean {
  const [first, id, action, rowId, ...rest] = path;
  if (path.length === 1 && (first === 'timeline.js' || first === 'timeline.css')) {
    if (method !== 'GET') throw new HttpError(405, `Use GET here, not ${method}.`);
    const script = first === 'timeline.js';
    res.writeHead(200, {
      'content-type': `${script ? 'text/javascript' : 'text/css'}; charset=utf-8`,
      'cache-control': 'no-store',
    });
    res.end(script ? TIMELINE_SCRIPT : TIMELINE_STYLES);
    return true;
  }
  if (first !== 'runs' || action !== 'timeline' || id === undefined || rest.length > 0) return false;
  if (method !== 'GET') throw new HttpError(405, `Use GET here, not ${method}.`);
  if (!store) throw new HttpError(404, 'This dashboard keeps no timelines.');
  if (rowId === undefined) {
    const view = store.view(id);
    if (!view) throw new HttpError(404, `No timeline for run "${id}": GET /runs lists the runs.`);
    sendJson(res, 200, view);
    return true;
  }
  const detail = store.detail(id, rowId);
  if (!detail) throw new HttpError(404, `No step "${rowId}" in the timeline of run "${id}".`);
  sendJson(res, 200, detail);
  return true;
}
