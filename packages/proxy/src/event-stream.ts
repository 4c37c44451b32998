import type { ServerResponse } from 'node:http';
import { defer, interval, type Subscription } from 'rxjs';
import type { ChatModel, ChatRequest } from '@rxagent/core';
import { formatSSEComment, formatSSEFrame, SSE_HEADERS } from '@rxagent/core/streams';
import { toWireError } from './wire-error.js';

/**
 * Streams one model call to `res` as Server-Sent Events: a `model-event` per `ModelEvent`,
 * then `end`, or `error` with the wire error. While the call is open a `: ping` comment goes
 * out every `pingMs`, so proxies and load balancers between the two ends do not cut a quiet
 * stream (a model thinking for a minute sends nothing); clients skip comments. The returned
 * subscription is the upstream call: unsubscribing aborts it.
 *
 * @example
 * const call = streamModelEvents(res, model, request, 15_000);
 * res.on('close', () => call.unsubscribe());
 */
export function streamModelEvents(
  res: ServerResponse,
  model: ChatModel,
  request: ChatRequest,
  pingMs: number,
): Subscription {
  res.writeHead(200, { ...SSE_HEADERS });
  res.flushHeaders();
  const write = (text: string) => {
    if (!res.destroyed && !res.writableEnded) res.write(text);
  };
  const send = (event: string, data: unknown) => write(formatSSEFrame({ event, data: JSON.stringify(data) }));
  const call = defer(() => model.stream(request)).subscribe({
    next: (event) => send('model-event', event),
    error: (error: unknown) => {
      send('error', toWireError(error, model.secrets));
      res.end();
    },
    complete: () => {
      send('end', {});
      res.end();
    },
  });
  if (!call.closed && Number.isFinite(pingMs))
    call.add(interval(pingMs).subscribe(() => write(formatSSEComment('ping'))));
  return call;
}
