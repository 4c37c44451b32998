import { EMPTY, filter, map, merge, Subject, type Observable } from 'rxjs';
import type { ApprovalDecision, Approver } from '../tools/tool-hooks.js';
import { toObservable } from '../util/to-observable.js';

interface Decision {
  toolCallId: string;
  approved: boolean;
  reason?: string;
}

/**
 * Decisions made with `Agent.approve(id)` / `Agent.reject(id, reason)`, raced with the
 * configured `approver` (whichever decides first wins).
 *
 * @example
 * const approvals = new AgentApprovals(config.approver);
 * runAgent({ ...config, approver: approvals.approver });
 * approvals.decide('call_1', true);
 */
export class AgentApprovals {
  private readonly decisions = new Subject<Decision>();

  constructor(private readonly configured?: Approver) {}

  /** The approver to give a run. */
  readonly approver: Approver = (request) => {
    const fromPerson: Observable<ApprovalDecision> = this.decisions.pipe(
      filter((d) => d.toolCallId === request.toolCallId),
      map((d) => (d.reason === undefined ? d.approved : { approved: d.approved, reason: d.reason })),
    );
    const fromApprover = this.configured ? toObservable(this.configured(request)) : EMPTY;
    return merge(fromApprover, fromPerson);
  };

  /** Records a person's decision for a pending call. */
  decide(toolCallId: string, approved: boolean, reason?: string): void {
    this.decisions.next(reason === undefined ? { toolCallId, approved } : { toolCallId, approved, reason });
  }
}
