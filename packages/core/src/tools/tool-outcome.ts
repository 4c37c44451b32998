import type { ToolOutcome } from '../events/agent-event.js';
import type { CallSettled } from './call-settled.js';

/**
 * Why a call ended as it did, from its settled outcome: it ran (`executed`), failed (it threw
 * or returned an error result, its arguments were invalid, its tool unknown), was refused by a
 * gate, a guardrail or the breaker (`denied`), rejected by a person (`rejected`), timed out
 * (`errorType: 'timeout'`) or was interrupted by a worker crash (`errorType: 'interrupted'`).
 * Calls the batch skipped or cancelled say so themselves (`end`).
 *
 * @example
 * toolOutcomeOf(settled(errorToolResult('Tool call rejected.'), 'rejected')); // 'rejected'
 */
export function toolOutcomeOf(settled: CallSettled): ToolOutcome {
  if (settled.end) return settled.end;
  switch (settled.outcome) {
    case 'success':
      return 'executed';
    case 'rejected':
      return 'rejected';
    case 'refused':
      return 'denied';
    case 'error':
      if (settled.result.errorType === 'timeout') return 'timed-out';
      if (settled.result.errorType === 'interrupted') return 'interrupted';
      return 'failed';
  }
}
