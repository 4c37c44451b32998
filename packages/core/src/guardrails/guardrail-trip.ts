import { GuardrailTrippedError } from './guardrail-tripped-error.js';
import type { GuardrailEndEvent, GuardrailKind } from '../events/guardrail-events.js';
import { stopSignal, type StopSignal } from '../events/stop-signal.js';

const KIND_LABEL: Record<GuardrailKind, string> = {
  input: 'Input',
  output: 'Output',
  'tool-input': 'Tool',
  'tool-output': 'Tool result',
};

/**
 * The stop signal of a tripped guardrail: reason `guardrail`, `source` its name, `context`
 * its kind, reason, info and the tool call checked.
 *
 * @example
 * turn.withStop(tripSignal(endEvent));
 */
export function tripSignal(trip: GuardrailEndEvent): StopSignal {
  const reason = trip.reason ?? 'No reason given.';
  const context: Record<string, unknown> = { kind: trip.kind, reason };
  if (trip.toolCallId !== undefined) context.toolCallId = trip.toolCallId;
  if (trip.info !== undefined) context.info = trip.info;
  return stopSignal(
    'guardrail',
    `${KIND_LABEL[trip.kind]} guardrail "${trip.guardrail}" tripped: ${reason}`,
    {
      source: trip.guardrail,
      context,
    },
  );
}

/**
 * The typed error of a tripped guardrail (`onGuardrailTrip: 'error'`).
 *
 * @example
 * throwError(() => tripError(endEvent));
 */
export function tripError(trip: GuardrailEndEvent): GuardrailTrippedError {
  return new GuardrailTrippedError(trip.guardrail, trip.kind, trip.reason ?? 'No reason given.', trip.info);
}
