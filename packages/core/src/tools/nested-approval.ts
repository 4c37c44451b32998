import { catchError, defaultIfEmpty, defer, map, of, take, tap, type Observable } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import { toObservable } from '../util/to-observable.js';
import { toApprovalDecision, type ApprovalVerdict } from './approval-decision.js';
import type { ApprovalRequest, Approver } from './tool-hooks.js';
import { errorText } from './tool-output.js';

/**
 * Asks the run's approver about a call made on a tool's behalf (a sub-agent's call), as the run
 * asks about its own: `approval-request` and `approval-end` are emitted into the run, so an
 * `Agent` lists the call in `pendingApprovals` and `approve(id)` decides it. Fails closed: no
 * approver, a failing one, or an answer that is not a clear yes is a refusal with a reason.
 *
 * @example
 * askApprover(approver, { toolCallId: 'call_1/sub_1', toolName: 'bash', args }, emit)
 *   .subscribe((verdict) => console.log(verdict.approved));
 */
export function askApprover(
  approver: Approver | undefined,
  request: ApprovalRequest,
  emit: (event: AgentEvent) => void,
): Observable<ApprovalVerdict> {
  return defer(() => {
    emit({ type: 'approval-request', ...request });
    const answer$: Observable<ApprovalVerdict> = approver
      ? defer(() => toObservable(approver(request))).pipe(
          take(1),
          map((answer) => toApprovalDecision(answer, true)),
          defaultIfEmpty(toApprovalDecision(undefined, true)),
          catchError((error: unknown) =>
            of({
              approved: false,
              reason: `The approver failed, so the call was refused: ${errorText(error)}`,
            }),
          ),
        )
      : of(toApprovalDecision(undefined, false));
    return answer$.pipe(
      tap((verdict) => {
        const end: AgentEvent = {
          type: 'approval-end',
          toolCallId: request.toolCallId,
          toolName: request.toolName,
          approved: verdict.approved,
        };
        if (verdict.reason !== undefined) end.reason = verdict.reason;
        emit(end);
      }),
    );
  });
}
