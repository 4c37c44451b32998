// Guardrails around the model call, its answer and each tool call: the entry
// `@rxagent/core/guardrails`.
export type {
  GuardedToolCall,
  GuardrailContext,
  GuardrailInput,
  GuardrailOutput,
  GuardrailVerdict,
  InputGuardrail,
  MaybeAsync,
  OutputGuardrail,
  OutputGuardrailVerdict,
  ToolGuardrail,
  ToolInputVerdict,
  ToolOutputVerdict,
} from './guardrails/guardrail.js';
export type { GuardrailConfig, GuardrailTripMode } from './guardrails/guardrail-config.js';
export type {
  GuardrailEndEvent,
  GuardrailKind,
  GuardrailOutcome,
  GuardrailStartEvent,
} from './events/guardrail-events.js';
export { GuardrailTrippedError } from './guardrails/guardrail-tripped-error.js';
export { inputGuard } from './operators/input-guard.js';
export type { InputGuardOptions } from './operators/input-guard.js';
export { outputGuard } from './operators/output-guard.js';
export type { OutputGuardOptions } from './operators/output-guard.js';
export { toolGuard } from './operators/tool-guard.js';
export type { RunningGuardrail } from './state/reduce-guardrail.js';
