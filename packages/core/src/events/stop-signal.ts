/**
 * Why a run stopped by itself:
 * `completed` (the model answered without tool calls) · `steps-limit` · `token-limit` ·
 * `time-limit` · `finish-reason` · `stop-requested` (a tool threw `AgentStop`) ·
 * `predicate` (a stopWhen predicate) · `rejected` (every tool call of a turn was rejected) ·
 * `user-requested` (aborted) · `guardrail` (a guardrail tripped; `StopSignal.source` names it).
 *
 * @example
 * if (event.type === 'agent-end' && event.reason === 'steps-limit') console.warn('Ran out of steps');
 */
export type StopReason =
  | 'completed'
  | 'steps-limit'
  | 'token-limit'
  | 'time-limit'
  | 'finish-reason'
  | 'stop-requested'
  | 'predicate'
  | 'rejected'
  | 'user-requested'
  | 'guardrail';

/**
 * Why and how a run stopped: the reason, a readable message, and optional context and source.
 *
 * @example
 * const signal: StopSignal = { reason: 'token-limit', message: 'Token budget reached: 10500/10000', context: { used: 10500 } };
 */
export interface StopSignal {
  reason: StopReason;
  message: string;
  context?: Record<string, unknown>;
  source?: string;
}

/**
 * Builds a `StopSignal`.
 *
 * @example
 * const stop = stopSignal('predicate', 'Found the answer', { source: 'myPredicate' });
 */
export function stopSignal(
  reason: StopReason,
  message: string,
  extra: { context?: Record<string, unknown>; source?: string } = {},
): StopSignal {
  const signal: StopSignal = { reason, message };
  if (extra.context !== undefined) signal.context = extra.context;
  if (extra.source !== undefined) signal.source = extra.source;
  return signal;
}
