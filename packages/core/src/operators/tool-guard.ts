import { of } from 'rxjs';
import { PipelineError } from '../errors/pipeline-error.js';
import { checkGuardrailList } from '../guardrails/check-guardrail-list.js';
import type { ToolGuardrail } from '../guardrails/guardrail.js';
import type { LoopOperator } from '../turn/loop-item.js';
import { turnOperator } from './turn-operator.js';

/**
 * Puts tool guardrails around every tool call the `executeTools()` after it runs: `before`
 * checks a call's validated arguments (allow, deny with a reason the model reads, rewrite
 * them, or trip), `after` checks its result before it enters the transcript and the
 * `tool-end` event (allow, replace — e.g. redact — or trip). A trip ends the run after the
 * turn with reason `guardrail` (or fails it with `GuardrailTrippedError` when the run's
 * `onGuardrailTrip` is `'error'`). Each check emits `guardrail-start` / `guardrail-end`.
 *
 * @param guardrails The tool guardrails.
 * @return A loop operator: put it before `executeTools()`.
 *
 * @example
 * const redactEmails: ToolGuardrail = {
 *   name: 'redact-emails',
 *   after: (_call, result) => ({ action: 'replace', result: { ...result, content: result.content.map((p) => (p.type === 'text' ? { ...p, text: p.text.replace(/\S+@\S+/g, '[email]') } : p)) } }),
 * };
 * runAgent({ model, tools, prompt, pipeline: (t$) => t$.pipe(llmStep(), toolGuard([redactEmails]), executeTools()) });
 */
export function toolGuard(guardrails: readonly ToolGuardrail[]): LoopOperator {
  checkGuardrailList('toolGuard', guardrails, ['before', 'after'], false);
  return turnOperator('toolGuard', (turn) => {
    if (turn.toolResults) {
      throw new PipelineError(
        'toolGuard() received a turn whose tools already ran: put toolGuard() before executeTools().',
      );
    }
    return of(turn.withToolGuardrails(guardrails));
  });
}
