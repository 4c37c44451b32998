import type { IncomingMessage, ServerResponse } from 'node:http';
import { ForkError } from '@rxagent/replay';
import type { DashboardForks } from './dashboard-forks.js';
import { FORK_SCRIPT } from './fork-script.js';
import { FORK_STYLES } from './fork-styles.js';
import type { ForkRequest } from './fork-request.js';
import { HttpError, readJsonBody, sendJson } from './http-json.js';
import { FORK_TEXT_LIMIT } from './text-limits.js';

/**
 * Reads the body of `POST /runs/:id/fork`: `{"at": {"toolCallId": "…"} | {"step": n}, "text": "…"}`.
 * Anything else is a 400 saying what to send.
 *
 * @example
 * parseForkRequest({ at: { step: 2 }, text: 'The answer is 5.' }); // { at: { step: 2 }, text: … }
 */
export function parseForkRequest(body: Record<string, unknown>): ForkRequest {
  const shape = 'Send {"at": {"toolCallId": "…"} or {"step": 1}, "text": "the new result or answer"}.';
  const { at, text } = body;
  if (typeof text !== 'string') throw new HttpError(400, `"text" must be a string. ${shape}`);
  if (text.length > FORK_TEXT_LIMIT) {
    throw new HttpError(
      400,
      `"text" has ${text.length} characters; a fork takes at most ${FORK_TEXT_LIMIT}: shorten it.`,
    );
  }
  if (typeof at !== 'object' || at === null || Array.isArray(at)) throw new HttpError(400, shape);
  const point = at as Record<string, unknown>;
  if (typeof point.toolCallId === 'string' && point.toolCallId !== '' && point.toolCallId.length <= 200) {
    return { at: { toolCallId: point.toolCallId }, text };
  }
  if (typeof point.step === 'number' && Number.isInteger(point.step) && point.step >= 1) {
    return { at: { step: point.step }, text };
  }
  throw new HttpError(
    400,
    `"at" must be {"toolCallId": "…"} (at most 200 characters) or {"step": n} (n ≥ 1). ${shape}`,
  );
}

/**
 * The fork routes: `GET /fork.js`, `GET /fork.css` (the page's _Fork here_ editor and
 * _Compare_ picker) and `POST /runs/:id/fork` → 201 `{ id, fork }`. A fork point or edit that
 * does not fit the run is 400 `{ error, kind: 'ForkError' }` (nothing is started). Returns
 * false when the path is none of them.
 *
 * @example
 * if (await forkRoute(forks, ['runs', 'run-1', 'fork'], 'POST', req, res)) return;
 */
export async function forkRoute(
  forks: DashboardForks | undefined,
  path: readonly string[],
  method: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<boolean> {
  const [first, id, action, ...rest] = path;
  if (path.length === 1 && (first === 'fork.js' || first === 'fork.css')) {
    if (method !== 'GET') throw new HttpError(405, `Use GET here, not ${method}.`);
    const script = first === 'fork.js';
    res.writeHead(200, {
      'content-type': `${script ? 'text/javascript' : 'text/css'}; charset=utf-8`,
      'cache-control': 'no-store',
    });
    res.end(script ? FORK_SCRIPT : FORK_STYLES);
    return true;
  }
  if (first !== 'runs' || id === undefined || action !== 'fork' || rest.length > 0) return false;
  if (method !== 'POST') throw new HttpError(405, `Use POST here, not ${method}.`);
  if (!forks) throw new HttpError(404, 'This dashboard does not fork runs.');
  const request = parseForkRequest(await readJsonBody(req));
  try {
    sendJson(res, 201, forks.fork(id, request));
  } catch (error) {
    if (!ForkError.isInstance(error)) throw error;
    sendJson(res, 400, { error: error.message, kind: 'ForkError' });
  }
  return true;
}
