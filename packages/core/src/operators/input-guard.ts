import { concat, connect, defer, filter, from, merge, of, takeUntil, tap, type Observable } from 'rxjs';
import { AgentConfigError } from '../errors/agent-errors.js';
import { PipelineError } from '../errors/pipeline-error.js';
import type { GuardrailEvent } from '../guardrails/check-all.js';
import { checkAll, firstTrip } from '../guardrails/check-all.js';
import { guardrailContext } from './guardrail-context.js';
import { checkGuardrailList } from '../guardrails/check-guardrail-list.js';
import type { GuardrailTripMode } from '../guardrails/guardrail-config.js';
import { tripped } from './guardrail-tripped.js';
import type { GuardrailInput, InputGuardrail } from '../guardrails/guardrail.js';
import { isTurn, type LoopItem, type LoopOperator } from '../turn/loop-item.js';
import type { Turn } from '../turn/turn.js';
import { contentText } from '../messages/message-helpers.js';
import type { AgentMessage } from '../messages/types.js';
import { EAGER_HELD } from './eager-calls.js';
import { turnOperator } from './turn-operator.js';

/**
 * Options of `inputGuard`.
 *
 * @example
 * inputGuard([moderation], { call: llmStep(), onTrip: 'error' });
 */
export interface InputGuardOptions {
  /**
   * The model call the guard runs (usually `llmStep()`), needed by `parallel` guardrails: they
   * race it, and a trip cancels its stream.
   */
  call?: LoopOperator;
  /** Default: the run's `onGuardrailTrip` (`'stop'`). */
  onTrip?: GuardrailTripMode;
}

function inputOf(turn: Turn): GuardrailInput {
  const messages: AgentMessage[] = turn.messages.slice(turn.run.priorLength);
  const text = messages
    .filter((m) => m.role === 'user')
    .map((m) => contentText(m))
    .join('\n\n');
  return { messages, text };
}

/** The model's answer is complete: from here on, items wait for the racing checks. */
function completesAnswer(item: LoopItem): boolean {
  return isTurn(item) || (item.type === 'message-end' && item.message.role === 'assistant');
}

/** A held item of the raced call, its turn no longer holding eager calls back. */
function released(item: LoopItem): LoopItem {
  return isTurn(item) ? item.withOperatorState(EAGER_HELD, undefined) : item;
}

/**
 * Checks the run's input (the messages of its first turn) with input guardrails. The blocking
 * ones run first, all at once; if none trips, the turn goes on — through `options.call` when
 * given. `parallel` guardrails race that call: its deltas stream at once, but the finished
 * answer is held until every racing check passed (and eager tools do not start early); a trip
 * cuts the model's stream at that moment and nothing of the answer enters the transcript. A trip ends the run with reason
 * `guardrail` (`StopSignal.source` names it) or, with `onTrip: 'error'`, fails it with
 * `GuardrailTrippedError`. A check that throws trips (fail closed). Later turns pass unchecked.
 *
 * @param guardrails The input guardrails.
 * @param options The call to race, and what a trip does.
 * @return A loop operator: put it before `llmStep()`, or give it the call and leave `llmStep()` out.
 *
 * @example
 * const moderation: InputGuardrail = { name: 'moderation', parallel: true, check: ({ text }) => moderate(text) };
 * runAgent({ model, prompt, pipeline: (t$) => t$.pipe(inputGuard([moderation], { call: llmStep() }), executeTools()) });
 */
export function inputGuard(
  guardrails: readonly InputGuardrail[],
  options: InputGuardOptions = {},
): LoopOperator {
  checkGuardrailList('inputGuard', guardrails, ['check']);
  const { call, onTrip } = options;
  if (call !== undefined && typeof call !== 'function') {
    throw new AgentConfigError('Invalid option inputGuard.call: expected a loop operator such as llmStep().');
  }
  const blocking = guardrails.filter((g) => !g.parallel);
  const racing = guardrails.filter((g) => g.parallel);
  if (racing.length > 0 && !call) {
    throw new AgentConfigError(
      `The parallel input guardrail "${racing[0]?.name}" needs the call it races: ` +
        'inputGuard(guardrails, { call: llmStep() }) in place of llmStep().',
    );
  }
  const passOn = (turn: Turn): Observable<LoopItem> => (call ? call(of(turn)) : of(turn));

  const race = (turn: Turn, input: GuardrailInput): Observable<LoopItem> =>
    defer(() => {
      const ctx = guardrailContext(turn);
      const seen: GuardrailEvent[] = [];
      let held: LoopItem[] | undefined;
      const checks$ = checkAll(
        'input',
        racing.map((g) => ({ name: g.name, check: () => g.check(input, ctx) })),
      ).pipe(tap((event) => seen.push(event)));
      const raced$ = checks$.pipe(
        // The checks' listeners (and the call) are in place before the first check starts.
        connect((events$) =>
          merge(
            events$,
            // Eager tools wait for the checks: none starts while the answer streams.
            passOn(turn.withOperatorState(EAGER_HELD, true)).pipe(
              takeUntil(events$.pipe(filter((e) => e.type === 'guardrail-end' && e.outcome === 'tripped'))),
              filter((item) => {
                if (held) {
                  held.push(item);
                  return false;
                }
                if (!completesAnswer(item)) return true;
                held = [item];
                return false;
              }),
            ),
          ),
        ),
      );
      return concat(
        raced$,
        defer(() => {
          const trip = firstTrip(seen);
          return trip ? tripped(turn, trip, onTrip) : from((held ?? []).map(released));
        }),
      );
    });

  return turnOperator('inputGuard', (turn) => {
    if (turn.assistant) {
      throw new PipelineError(
        "inputGuard() received a turn that already has the model's message: put it before llmStep(), " +
          'or give it the call (inputGuard(guardrails, { call: llmStep() })) in place of llmStep().',
      );
    }
    const input = inputOf(turn);
    if (turn.step !== 1 || turn.stop || input.messages.length === 0 || guardrails.length === 0) {
      return passOn(turn);
    }
    const ctx = guardrailContext(turn);
    const seen: GuardrailEvent[] = [];
    const blocking$ = checkAll(
      'input',
      blocking.map((g) => ({ name: g.name, check: () => g.check(input, ctx) })),
    ).pipe(tap((event) => seen.push(event)));
    return concat(
      blocking$,
      defer(() => {
        const trip = firstTrip(seen);
        if (trip) return tripped(turn, trip, onTrip);
        return racing.length > 0 ? race(turn, input) : passOn(turn);
      }),
    );
  });
}
