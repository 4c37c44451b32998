import { EMPTY, filter, map, merge, Subject, type Observable } from 'rxjs';
import type { ElicitationAnswer, ElicitationValues, Elicitor } from '../elicitation/elicitation-types.js';
import { toObservable } from '../util/to-observable.js';

/**
 * A person's answer to an elicitation: the values (accepted, checked against the form), or
 * `'decline'` / `'cancel'`.
 *
 * @example
 * const answer: ElicitationReply = { guests: 4 };
 * agent.respond('call_1/elicitation-1', answer);
 */
export type ElicitationReply = ElicitationValues | Record<string, unknown> | 'decline' | 'cancel';

interface Reply {
  elicitationId: string;
  answer: ElicitationAnswer;
}

/**
 * Answers given with `Agent.respond(id, values)`, raced with the configured `elicit` (whichever
 * answers first wins), as `AgentApprovals` does for approvals.
 *
 * @example
 * const elicitations = new AgentElicitations(config.elicit);
 * runAgent({ ...config, elicit: elicitations.elicit });
 * elicitations.respond('call_1/elicitation-1', { guests: 4 });
 */
export class AgentElicitations {
  private readonly replies = new Subject<Reply>();

  constructor(private readonly configured?: Elicitor) {}

  /** The elicitor to give a run. */
  readonly elicit: Elicitor = (request) => {
    const fromPerson: Observable<ElicitationAnswer> = this.replies.pipe(
      filter((r) => r.elicitationId === request.elicitationId),
      map((r) => r.answer),
    );
    const fromElicitor = this.configured ? toObservable(this.configured(request)) : EMPTY;
    return merge(fromElicitor, fromPerson);
  };

  /** Records a person's answer for a pending elicitation. */
  respond(elicitationId: string, reply: ElicitationReply): void {
    const answer: ElicitationAnswer =
      reply === 'decline' || reply === 'cancel' ? { action: reply } : { action: 'accept', content: reply };
    this.replies.next({ elicitationId, answer });
  }
}
