import { AgentConfigError } from '../errors/agent-errors.js';
import type { ToolCallPart } from '../messages/types.js';
import type { StopCondition } from './stop-condition.js';
import { stopSignal } from '../events/stop-signal.js';

/** The arguments as one string with object keys sorted, so `{a,b}` and `{b,a}` repeat each other. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/**
 * Stops a run whose model calls the same tool with the same arguments `times` times in a row
 * (across steps, in call order): a loop that burns money without getting anywhere. The stop
 * has reason `predicate`, source `repeatedToolCalls`, and its context names the call
 * (`toolName`, `args`, `times`). Only the calls at the end of the run are looked at, so the
 * check costs O(times), not O(run).
 *
 * @param times How many identical calls in a row stop the run (at least 2).
 * @return A stop condition.
 *
 * @example
 * runAgent({ model, tools: [search], prompt: 'Find it', stopWhen: repeatedToolCalls(3) });
 */
export function repeatedToolCalls(times: number): StopCondition {
  if (!Number.isInteger(times) || times < 2) {
    throw new AgentConfigError(
      `repeatedToolCalls(times) needs a whole number of at least 2, received ${String(times)}.`,
    );
  }
  return function repeatedToolCalls({ steps }) {
    let first: ToolCallPart | undefined;
    let key = '';
    let count = 0;
    for (let s = steps.length - 1; s >= 0 && count < times; s--) {
      const calls = steps[s]?.toolCalls ?? [];
      // A step without calls breaks the run of repeats.
      if (calls.length === 0) return undefined;
      for (let c = calls.length - 1; c >= 0 && count < times; c--) {
        const call = calls[c] as ToolCallPart;
        const callKey = `${call.name}\u0000${canonical(call.args)}`;
        if (!first) {
          first = call;
          key = callKey;
        } else if (callKey !== key) {
          return undefined;
        }
        count++;
      }
    }
    if (!first || count < times) return undefined;
    return stopSignal(
      'predicate',
      `The model called "${first.name}" with the same arguments ${times} times in a row.`,
      { context: { toolName: first.name, args: first.args, times }, source: 'repeatedToolCalls' },
    );
  };
}
