import type { GuardrailEndEvent, GuardrailKind, GuardrailStartEvent } from '../events/guardrail-events.js';
import type { AgentState } from './agent-state.js';

/**
 * A guardrail check in progress.
 *
 * @example
 * state$.subscribe((s) => s.guardrails.forEach((g: RunningGuardrail) => console.log('checking', g.guardrail)));
 */
export interface RunningGuardrail {
  guardrail: string;
  kind: GuardrailKind;
  toolCallId?: string;
}

function same(a: RunningGuardrail, b: RunningGuardrail): boolean {
  return a.guardrail === b.guardrail && a.kind === b.kind && a.toolCallId === b.toolCallId;
}

/**
 * Folds a guardrail event into `next` (a fresh copy of `state`): a start adds a running check,
 * an end removes it and keeps its verdict; an input guardrail that tripped drops the answer
 * being streamed (its model call was cancelled, nothing of it enters the transcript).
 *
 * @example
 * next = reduceGuardrail(state, copy(state), event);
 */
export function reduceGuardrail(
  state: AgentState,
  next: AgentState,
  event: GuardrailStartEvent | GuardrailEndEvent,
): AgentState {
  const check: RunningGuardrail = { guardrail: event.guardrail, kind: event.kind };
  if (event.toolCallId !== undefined) check.toolCallId = event.toolCallId;
  if (event.type === 'guardrail-start') {
    next.guardrails = [...state.guardrails, check];
    return next;
  }
  next.guardrails = state.guardrails.filter((g) => !same(g, check));
  next.lastGuardrailVerdict = event;
  if (event.kind === 'input' && event.outcome === 'tripped') next.streamingMessage = undefined;
  return next;
}
