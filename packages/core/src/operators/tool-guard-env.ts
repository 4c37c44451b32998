import type { RunFacts } from '../turn/run-facts.js';
import type { Turn } from '../turn/turn.js';
import { guardrailContext } from './guardrail-context.js';
import type { ToolGuardEnv } from '../guardrails/guard-tool-call.js';
import type { ToolGuardrail } from '../guardrails/guardrail.js';

// The tool guardrails `toolGuard()` added to a run: it runs before `executeTools()`, which
// reads them here. Keyed by the run's facts, so they end with the run.
const added = new WeakMap<RunFacts, ToolGuardrail[]>();

/**
 * Adds tool guardrails to a run (once each, however many turns add them).
 *
 * @example
 * addToolGuardrails(turn.run, [redactPii]);
 */
export function addToolGuardrails(run: RunFacts, guardrails: readonly ToolGuardrail[]): void {
  let list = added.get(run);
  if (!list) added.set(run, (list = []));
  for (const g of guardrails) if (!list.includes(g)) list.push(g);
}

/**
 * The tool guardrails of a turn's calls: the run's `toolGuardrails`, those `toolGuard()`
 * added, then the operator's own; undefined when there are none.
 *
 * @example
 * const guard = toolGuardEnv(turn, options.guardrails);
 */
export function toolGuardEnv(turn: Turn, own: readonly ToolGuardrail[] = []): ToolGuardEnv | undefined {
  const guardrails: ToolGuardrail[] = [];
  for (const g of [...(turn.run.config.toolGuardrails ?? []), ...(added.get(turn.run) ?? []), ...own]) {
    if (!guardrails.includes(g)) guardrails.push(g);
  }
  if (guardrails.length === 0) return undefined;
  return { guardrails, context: guardrailContext(turn), onTrip: turn.run.config.onGuardrailTrip ?? 'stop' };
}
