import type { OperatorFunction } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import { Turn } from './turn.js';

/**
 * What flows through a run's pipeline: the public events upstream operators emitted, then
 * exactly one `Turn`.
 *
 * @example
 * const publicOnly = (item: LoopItem): item is AgentEvent => !isTurn(item);
 */
export type LoopItem = AgentEvent | Turn;

/**
 * An operator of the loop body.
 *
 * @example
 * const logTurns: LoopOperator = tap((item) => item.type === 'turn-start' && console.log('step', item.step));
 */
export type LoopOperator = OperatorFunction<LoopItem, LoopItem>;

/**
 * True for the `Turn` in a pipeline's stream (everything else is a public event).
 *
 * @example
 * pipeline: (t$) => t$.pipe(llmStep(), filter((item) => isTurn(item) || item.type !== 'message-update'), executeTools());
 */
export function isTurn(item: unknown): item is Turn {
  return Turn.is(item);
}
