/**
 * Which check a guardrail event is about: the run's input, its final answer, or one tool
 * call before it runs (`tool-input`) or after (`tool-output`).
 *
 * @example
 * const kind: GuardrailKind = 'tool-output';
 */
export type GuardrailKind = 'input' | 'output' | 'tool-input' | 'tool-output';

/**
 * What a guardrail decided: `passed`; `tripped` (the run ends); `retry` (the model is sent the
 * reason and tries again); `denied` (a tool call refused with the reason); `rewritten` (a tool
 * call's arguments replaced); `replaced` (a tool result replaced before the transcript).
 *
 * @example
 * const outcome: GuardrailOutcome = 'replaced';
 */
export type GuardrailOutcome = 'passed' | 'tripped' | 'retry' | 'denied' | 'rewritten' | 'replaced';

/**
 * A guardrail check starts.
 *
 * @example
 * const e: GuardrailStartEvent = { type: 'guardrail-start', guardrail: 'moderation', kind: 'input' };
 */
export interface GuardrailStartEvent {
  type: 'guardrail-start';
  guardrail: string;
  kind: GuardrailKind;
  /** The tool call checked (tool guardrails). */
  toolCallId?: string;
}

/**
 * A guardrail check ended with its verdict (plain JSON: `info` is what the guardrail reported).
 *
 * @example
 * const e: GuardrailEndEvent = {
 *   type: 'guardrail-end', guardrail: 'moderation', kind: 'input',
 *   outcome: 'tripped', reason: 'The input asks for malware.',
 * };
 */
export interface GuardrailEndEvent {
  type: 'guardrail-end';
  guardrail: string;
  kind: GuardrailKind;
  toolCallId?: string;
  outcome: GuardrailOutcome;
  reason?: string;
  info?: Record<string, unknown>;
  /** The arguments the tool runs with instead (`rewritten`). */
  args?: unknown;
}
