import { catchError, defaultIfEmpty, defer, finalize, map, of, take, tap, type Observable } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import { errorText } from '../tools/tool-output.js';
import { toObservable } from '../util/to-observable.js';
import { checkElicitationAnswer, elicitationSchemaProblem } from './check-elicitation.js';
import type { ElicitationRequest, ElicitationResponse, Elicitor } from './elicitation-types.js';

const NO_ELICITOR =
  'No one could be asked: the run has no elicit function and no Agent to respond(). The request was declined.';

/**
 * Asks for information the way a run asks for approvals: `elicitation-request` is emitted into
 * the run (so `Agent.respond(id, values)` or the dashboard can answer it), the run's `elicit`
 * function is consulted, the answer is checked against the form, and `elicitation-end` says
 * what was decided. Fails closed: no elicitor, a failing one, no answer, or values that do not
 * fit decline, with a reason. A form outside the allowed subset is declined without asking
 * (with a `warning`). Unsubscribing before an answer (the call ended) ends it as `cancel`.
 *
 * @param elicitor The run's `elicit` (an `Agent` gives one that waits for `respond`).
 * @param request What to ask.
 * @param emit Where the events go (the run's stream).
 * @return The response, once.
 *
 * @example
 * askElicitor(config.elicit, request, emit).subscribe((response) => reply(response));
 */
export function askElicitor(
  elicitor: Elicitor | undefined,
  request: ElicitationRequest,
  emit: (event: AgentEvent) => void,
): Observable<ElicitationResponse> {
  return defer(() => {
    const problem = elicitationSchemaProblem(request.requestedSchema);
    if (problem) {
      const reason = `The form asked for by "${request.toolName}" cannot be shown: ${problem}. It was declined.`;
      emit({ type: 'warning', message: reason });
      return of<ElicitationResponse>({ action: 'decline', reason });
    }
    emit({ type: 'elicitation-request', ...request });
    let ended = false;
    const end = (response: ElicitationResponse): void => {
      ended = true;
      const event: AgentEvent = {
        type: 'elicitation-end',
        elicitationId: request.elicitationId,
        toolCallId: request.toolCallId,
        toolName: request.toolName,
        action: response.action,
      };
      if ('reason' in response && response.reason !== undefined) event.reason = response.reason;
      emit(event);
    };
    const answer$: Observable<ElicitationResponse> = elicitor
      ? defer(() => toObservable(elicitor(request))).pipe(
          take(1),
          map((answer) => checkElicitationAnswer(request.requestedSchema, answer)),
          defaultIfEmpty<ElicitationResponse, ElicitationResponse>({
            action: 'decline',
            reason: 'The elicitor gave no answer, so the request was declined.',
          }),
          catchError((error: unknown) =>
            of<ElicitationResponse>({
              action: 'decline',
              reason: `The elicitor failed, so the request was declined: ${errorText(error)}`,
            }),
          ),
        )
      : of<ElicitationResponse>({ action: 'decline', reason: NO_ELICITOR });
    return answer$.pipe(
      tap(end),
      finalize(() => {
        if (!ended) end({ action: 'cancel', reason: 'The call ended before an answer came.' });
      }),
    );
  });
}
