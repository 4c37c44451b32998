import { of, throwError, type Observable } from 'rxjs';
import type { GuardrailEndEvent } from '../events/guardrail-events.js';
import type { GuardrailTripMode } from '../guardrails/guardrail-config.js';
import { tripError, tripSignal } from '../guardrails/guardrail-trip.js';
import type { LoopItem } from '../turn/loop-item.js';
import type { Turn } from '../turn/turn.js';

/**
 * What a trip does at `turn`: the turn stopped with the guardrail's signal, or the typed error.
 *
 * @example
 * return trip ? tripped(turn, trip, options.onTrip) : of(turn);
 */
export function tripped(turn: Turn, trip: GuardrailEndEvent, mode?: GuardrailTripMode): Observable<LoopItem> {
  const onTrip = mode ?? turn.run.settings.onGuardrailTrip;
  return onTrip === 'error' ? throwError(() => tripError(trip)) : of(turn.withStop(tripSignal(trip)));
}
