import { concat, defer, of, tap } from 'rxjs';
import { PipelineError } from '../errors/pipeline-error.js';
import type { GuardrailEndEvent } from '../events/guardrail-events.js';
import { checkAll, firstTrip, type GuardrailEvent } from '../guardrails/check-all.js';
import { guardrailContext } from './guardrail-context.js';
import { checkGuardrailList } from '../guardrails/check-guardrail-list.js';
import type { GuardrailTripMode } from '../guardrails/guardrail-config.js';
import { tripped } from './guardrail-tripped.js';
import type { GuardrailOutput, OutputGuardrail } from '../guardrails/guardrail.js';
import type { LoopOperator } from '../turn/loop-item.js';
import type { Turn } from '../turn/turn.js';
import { assistantText, toolCalls } from '../messages/message-helpers.js';
import type { UserMessage } from '../messages/types.js';
import { turnOperator } from './turn-operator.js';

/**
 * Options of `outputGuard`.
 *
 * @example
 * outputGuard([noLeaks], { onTrip: 'error' });
 */
export interface OutputGuardOptions {
  /** Default: the run's `onGuardrailTrip` (`'stop'`). */
  onTrip?: GuardrailTripMode;
}

const DEFAULT_MAX_RETRIES = 2;

function outputOf(turn: Turn): GuardrailOutput {
  const message = turn.assistant as NonNullable<Turn['assistant']>;
  const text = assistantText(message);
  const format = turn.run.settings.request.responseFormat?.type;
  if (format !== 'json' && format !== 'json-schema') return { message, text };
  try {
    return { message, text, json: JSON.parse(text) as unknown };
  } catch {
    return { message, text };
  }
}

function retryMessage(retries: readonly GuardrailEndEvent[], now: number): UserMessage {
  const reasons = retries.map(
    (r) => `Your answer was rejected by the "${r.guardrail}" guardrail: ${r.reason}`,
  );
  return { role: 'user', content: `${reasons.join('\n')}\nPlease answer again.`, timestamp: now };
}

// Where the run keeps, per guardrail, how many retries it asked for (a snapshot carries it).
const RETRIES = 'outputGuard.retries';

/**
 * Checks the model's final answer (a message without tool calls that the run would stop on)
 * with output guardrails, all at once. A trip ends the run with reason `guardrail`
 * (`StopSignal.source` names the guardrail) or, with `onTrip: 'error'`, fails it with
 * `GuardrailTrippedError`; a trip whose verdict says `retry` sends the model the reason as a
 * user message and lets it answer again, at most the guardrail's `maxRetries` (default 2)
 * times a run, after which it trips. A check that throws trips (fail closed). The checked
 * answer stays in the transcript: it was streamed already.
 *
 * @param guardrails The output guardrails.
 * @param options What a trip does.
 * @return A loop operator: put it after `llmStep()` and `executeTools()`.
 *
 * @example
 * const noLeaks: OutputGuardrail = { name: 'no-leaks', check: ({ text }) => ({ tripped: /sk-\w+/.test(text), reason: 'Leaks a key.' }) };
 * runAgent({ model, prompt, pipeline: (t$) => t$.pipe(llmStep(), executeTools(), outputGuard([noLeaks])) });
 */
export function outputGuard(
  guardrails: readonly OutputGuardrail[],
  options: OutputGuardOptions = {},
): LoopOperator {
  checkGuardrailList('outputGuard', guardrails, ['check']);
  return turnOperator('outputGuard', (turn) => {
    const message = turn.assistant;
    if (!message) {
      if (turn.stop) return of(turn); // stopped before its model call (an input guardrail)
      throw new PipelineError(
        "outputGuard() received a turn without the model's message: put outputGuard() after llmStep().",
      );
    }
    const final =
      toolCalls(message).length === 0 && turn.next.length === 0 && message.stopReason !== 'aborted';
    if (!final || guardrails.length === 0 || turn.stop?.reason === 'guardrail') return of(turn);
    const counts: Readonly<Record<string, number>> = turn.operatorState(RETRIES) ?? {};
    const output = outputOf(turn);
    const ctx = guardrailContext(turn);
    const seen: GuardrailEvent[] = [];
    const checks = guardrails.map((g) => ({
      name: g.name,
      check: () => g.check(output, ctx),
      mayRetry: (counts[g.name] ?? 0) < (g.maxRetries ?? DEFAULT_MAX_RETRIES),
    }));
    return concat(
      checkAll('output', checks).pipe(tap((event) => seen.push(event))),
      defer(() => {
        const trip = firstTrip(seen);
        if (trip) return tripped(turn, trip, options.onTrip);
        const asked = seen.filter(
          (e): e is GuardrailEndEvent => e.type === 'guardrail-end' && e.outcome === 'retry',
        );
        if (asked.length === 0) return of(turn);
        const next = { ...counts };
        for (const r of asked) next[r.guardrail] = (next[r.guardrail] ?? 0) + 1;
        return of(
          turn.withOperatorState(RETRIES, next).withNext([retryMessage(asked, turn.run.scheduler.now())]),
        );
      }),
    );
  });
}
