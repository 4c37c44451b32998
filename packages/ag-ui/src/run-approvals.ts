import type { ResumeEntry } from '@ag-ui/core';
import type { ApprovalDecision, Approver } from '@rxagent/core';
import { filter, map, ReplaySubject, take } from 'rxjs';

interface Decision {
  toolCallId: string;
  approved: boolean;
  reason?: string;
}

/** The reason the model reads when the front end cancels an approval interrupt. */
export const CANCELLED_REASON = 'The person cancelled the approval.';

/**
 * A resume entry's answer to an approval interrupt, failing closed: only `resolved` with a
 * payload `true` or `{ approved: true }` approves; anything else rejects (with the payload's
 * `reason` when it has one).
 *
 * @example
 * toDecision({ interruptId: 'call_1', status: 'resolved', payload: { approved: true } }); // { toolCallId: 'call_1', approved: true }
 */
export function toDecision(entry: ResumeEntry): Decision {
  if (entry.status === 'cancelled')
    return { toolCallId: entry.interruptId, approved: false, reason: CANCELLED_REASON };
  const payload: unknown = entry.payload;
  const approved =
    payload === true ||
    (typeof payload === 'object' &&
      payload !== null &&
      (payload as { approved?: unknown }).approved === true);
  const reason =
    typeof payload === 'object' &&
    payload !== null &&
    typeof (payload as { reason?: unknown }).reason === 'string'
      ? (payload as { reason: string }).reason
      : undefined;
  return reason === undefined
    ? { toolCallId: entry.interruptId, approved }
    : { toolCallId: entry.interruptId, approved, reason };
}

/**
 * The approvals of one rxagent run driven from AG-UI: the run's `approver` waits for the
 * decision a later AG-UI run brings in its `resume` entries.
 *
 * @example
 * const approvals = new RunApprovals();
 * runAgent({ ...config, approver: approvals.approver });
 * approvals.decide({ interruptId: 'call_1', status: 'resolved', payload: { approved: true } });
 */
export class RunApprovals {
  private readonly decisions = new ReplaySubject<Decision>();

  readonly approver: Approver = (request) =>
    this.decisions.pipe(
      filter((d) => d.toolCallId === request.toolCallId),
      take(1),
      map((d): ApprovalDecision =>
        d.reason === undefined ? d.approved : { approved: d.approved, reason: d.reason },
      ),
    );

  decide(entry: ResumeEntry): void {
    this.decisions.next(toDecision(entry));
  }
}
