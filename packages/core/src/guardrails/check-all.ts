import { concat, map, merge, of, type Observable } from 'rxjs';
import type { GuardrailEndEvent, GuardrailKind, GuardrailStartEvent } from '../events/guardrail-events.js';
import { checkGuardrail, jsonInfo, type CheckAnswer } from './check-guardrail.js';
import type { GuardrailVerdict, MaybeAsync, OutputGuardrailVerdict } from './guardrail.js';

/** A guardrail's events. */
export type GuardrailEvent = GuardrailStartEvent | GuardrailEndEvent;

/** One check to run: the guardrail's name and its check. */
export interface NamedCheck<V extends GuardrailVerdict> {
  readonly name: string;
  readonly check: () => MaybeAsync<V | undefined | void>;
  /** Whether a trip of this one asks for a retry that is still allowed. */
  readonly mayRetry?: boolean;
}

function endEvent(
  kind: GuardrailKind,
  name: string,
  answer: CheckAnswer<OutputGuardrailVerdict>,
  mayRetry: boolean,
) {
  const end: GuardrailEndEvent = { type: 'guardrail-end', guardrail: name, kind, outcome: 'passed' };
  if (!answer.ok) {
    // Fail closed: a guardrail that cannot answer does not let the input or answer through.
    end.outcome = 'tripped';
    end.reason = `The guardrail failed, so it tripped: ${answer.error}`;
    return end;
  }
  const verdict = answer.verdict;
  if (!verdict?.tripped) return end;
  end.outcome = verdict.retry && mayRetry ? 'retry' : 'tripped';
  end.reason = typeof verdict.reason === 'string' && verdict.reason ? verdict.reason : 'No reason given.';
  const info = jsonInfo(verdict.info);
  if (info) end.info = info;
  return end;
}

/**
 * Runs the checks at once: `guardrail-start` for each, then a `guardrail-end` with its verdict
 * as each answers (completion order). Completes when every check has answered.
 *
 * @example
 * checkAll('input', [{ name: 'moderation', check: () => moderate(text) }]).subscribe(console.log);
 */
export function checkAll<V extends GuardrailVerdict>(
  kind: GuardrailKind,
  checks: readonly NamedCheck<V>[],
): Observable<GuardrailEvent> {
  const starts = checks.map((c): GuardrailStartEvent => ({
    type: 'guardrail-start',
    guardrail: c.name,
    kind,
  }));
  const ends = checks.map((c) =>
    checkGuardrail<OutputGuardrailVerdict>(c.check).pipe(
      map((answer) => endEvent(kind, c.name, answer, c.mayRetry === true)),
    ),
  );
  return concat(of(...starts), merge(...ends));
}

/**
 * The first `tripped` end among `events`, if any.
 *
 * @example
 * const trip = firstTrip(seen);
 */
export function firstTrip(events: readonly GuardrailEvent[]): GuardrailEndEvent | undefined {
  return events.find((e): e is GuardrailEndEvent => e.type === 'guardrail-end' && e.outcome === 'tripped');
}
