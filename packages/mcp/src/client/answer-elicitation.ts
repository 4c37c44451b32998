import type { ElicitationResponse } from '@rxagent/core/elicitation';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { fromEvent, lastValueFrom, merge, take, takeUntil, type Observable } from 'rxjs';
import type { CallInFlight } from '../calls-in-flight.js';

/** Emits once either signal aborts. */
export function aborted(...signals: AbortSignal[]): Observable<unknown> {
  return merge(...signals.map((s) => (s.aborted ? [s.reason] : fromEvent(s, 'abort')))).pipe(take(1));
}

/**
 * Answers a server's `elicitation/create` through the run whose call is in flight: the run
 * emits `elicitation-request`, a person (`Agent.respond`) or the run's `elicit` answers, the
 * values are checked against the form. Fails closed: with no call in flight, calls of several
 * runs (nobody can tell whose), or a context without `elicit`, the answer is `decline`; a call
 * or request that ends first answers `cancel`.
 *
 * @example
 * client.setRequestHandler(ElicitRequestSchema, (req, extra) => answerElicitation('docs', req.params, calls.owner(), extra.signal));
 */
export async function answerElicitation(
  server: string,
  params: ElicitRequestFormParams,
  owner: CallInFlight | 'ambiguous' | undefined,
  signal: AbortSignal,
): Promise<ElicitResult> {
  const ctx = owner === 'ambiguous' ? undefined : owner?.ctx;
  if (!ctx?.elicit) return { action: 'decline' };
  const cancelled: ElicitationResponse = { action: 'cancel' };
  const response = await lastValueFrom(
    ctx
      .elicit({
        message: params.message,
        // The SDK checked it is the primitive subset; the run checks it again before asking.
        requestedSchema: params.requestedSchema,
        source: server,
      })
      .pipe(takeUntil(aborted(signal, ctx.signal))),
    { defaultValue: cancelled },
  );
  return response.action === 'accept'
    ? { action: 'accept', content: response.content }
    : { action: response.action };
}
