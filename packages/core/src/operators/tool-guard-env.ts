import type { Turn } from '../turn/turn.js';
import { guardrailContext } from './guardrail-context.js';
import type { ToolGuardEnv } from '../guardrails/guard-tool-call.js';
import type { ToolGuardrail } from '../guardrails/guardrail.js';

/**
 * The tool guardrails of a turn's calls: the run's `toolGuardrails`, those `toolGuard()`
 * added, then the operator's own; undefined when there are none.
 *
 * @example
 * const guard = toolGuardEnv(turn, options.guardrails);
 */
export function toolGuardEnv(turn: Turn, own: readonly ToolGuardrail[] = []): ToolGuardEnv | undefined {
  const configured = turn.run.settings.tools.guardrails;
  if (configured.length === 0 && turn.toolGuardrails.length === 0 && own.length === 0) return undefined;
  const guardrails: ToolGuardrail[] = [];
  for (const g of [...turn.run.settings.tools.guardrails, ...turn.toolGuardrails, ...own]) {
    if (!guardrails.includes(g)) guardrails.push(g);
  }
  if (guardrails.length === 0) return undefined;
  return { guardrails, context: guardrailContext(turn), onTrip: turn.run.settings.onGuardrailTrip };
}
