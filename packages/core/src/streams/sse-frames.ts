import { serializeError } from '../errors/serialize-error.js';

/** The SSE `event:` names besides the run's own events (sent as plain `data:` messages). */
export const SSE_END_EVENT = 'run-end';
export const SSE_ERROR_EVENT = 'run-error';

export const KEEP_ALIVE_FRAME = ': keep-alive\n\n';
export const END_FRAME = `event: ${SSE_END_EVENT}\ndata: {}\n\n`;

/**
 * One Server-Sent Event to write: a name (default `message`), an id, a payload (text; may span
 * lines).
 *
 * @example
 * const frame: SSEFrame = { event: 'run', id: '1', data: '{}' };
 */
export interface SSEFrame {
  event?: string;
  id?: string;
  data: string;
}

function singleLine(value: string, what: string): string {
  if (/[\r\n\0]/.test(value))
    throw new TypeError(`An SSE ${what} cannot contain a line break or NUL: ${JSON.stringify(value)}.`);
  return value;
}

/**
 * The wire text of one Server-Sent Event: `event:`, `id:`, one `data:` line per line of the
 * payload, and the blank line that ends it. A name or id with a line break is a `TypeError`.
 *
 * @example
 * formatSSEFrame({ event: 'run', data: '{"id":"run-1"}' }); // 'event: run\ndata: {"id":"run-1"}\n\n'
 */
export function formatSSEFrame(frame: SSEFrame): string {
  let out = '';
  if (frame.event !== undefined) out += `event: ${singleLine(frame.event, 'event name')}\n`;
  if (frame.id !== undefined) out += `id: ${singleLine(frame.id, 'event id')}\n`;
  const data = frame.data;
  // JSON never holds a raw line break: the common case is one line.
  if (!/[\r\n]/.test(data)) return `${out}data: ${data}\n\n`;
  for (const line of data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/**
 * A comment line (ignored by every SSE reader): keeps idle connections and proxies alive.
 *
 * @example
 * formatSSEComment('keep-alive'); // ': keep-alive\n\n'
 */
export function formatSSEComment(text: string): string {
  return `: ${text.replace(/[\r\n]+/g, ' ')}\n\n`;
}

export function errorFrame(error: unknown): string {
  return `event: ${SSE_ERROR_EVENT}\ndata: ${JSON.stringify(serializeError(error))}\n\n`;
}

export function retryFrame(ms: number): string {
  return `retry: ${Math.max(0, Math.floor(ms))}\n\n`;
}

/**
 * The response headers of an SSE stream of a run (no caching, no proxy buffering).
 *
 * @example
 * res.writeHead(200, SSE_HEADERS);
 */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};
