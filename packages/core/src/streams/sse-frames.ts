import { serializeError } from '../errors/serialize-error.js';
import type { SequencedEvent } from './share-run.js';

/** The SSE `event:` names besides the run's own events (sent as plain `data:` messages). */
export const SSE_END_EVENT = 'run-end';
export const SSE_ERROR_EVENT = 'run-error';

export const KEEP_ALIVE_FRAME = ': keep-alive\n\n';
export const END_FRAME = `event: ${SSE_END_EVENT}\ndata: {}\n\n`;

/** JSON.stringify never writes a raw line break, so one `data:` line carries the event. */
export function eventFrame({ id, event }: SequencedEvent): string {
  return `id: ${id}\ndata: ${JSON.stringify(event)}\n\n`;
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
