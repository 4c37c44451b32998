import type { AgentStop } from '../errors/agent-stop.js';
import type { AgentEvent, ToolOutcome, ToolResult } from '../events/agent-event.js';

/** What happened to one call, for the circuit breaker and the stop rules. */
export type CallOutcome = 'success' | 'error' | 'refused' | 'rejected';

/** The end of one call's pipeline. */
export interface CallSettled {
  type: 'call-settled';
  result: ToolResult;
  outcome: CallOutcome;
  stop?: AgentStop;
  /** How the `tool-end` reports it when the outcome alone does not say (skipped, cancelled). */
  end?: ToolOutcome;
}

/**
 * The end of a call's pipeline with its result.
 *
 * @example
 * settled(errorToolResult('Tool call rejected.'), 'rejected');
 */
export function settled(result: ToolResult, outcome: CallOutcome, stop?: AgentStop): CallSettled {
  return stop ? { type: 'call-settled', result, outcome, stop } : { type: 'call-settled', result, outcome };
}

/**
 * A tool flag that may be a function of the arguments; a throwing function counts as `fallback`.
 *
 * @example
 * flag(tool.concurrencySafe, call.args, true);
 */
export function flag(
  value: boolean | ((args: never) => boolean) | undefined,
  args: unknown,
  fallback: boolean,
): boolean {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  try {
    return (value as (args: unknown) => boolean)(args) === true;
  } catch {
    return fallback;
  }
}

/** An item of one call's stream: its events, then its one outcome. */
export type CallItem = AgentEvent | CallSettled;
