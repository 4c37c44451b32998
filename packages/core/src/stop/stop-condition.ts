import type { StepResult } from '../events/agent-event.js';
import type { AgentMessage, Usage } from '../messages/types.js';
import type { StopSignal } from '../events/stop-signal.js';

/**
 * What a stop predicate sees after a step's model call and tools.
 *
 * @example
 * const overBudget: StopCondition = ({ usage }) => usage.totalTokens > 50_000;
 */
export interface StopContext {
  /** Every completed step of this run, the current one last. */
  steps: readonly StepResult[];
  /** The step that just finished. */
  step: StepResult;
  /** Total usage of this run so far. */
  usage: Usage;
  /** Time since the run started, on the run's scheduler. */
  elapsedMs: number;
  /** The transcript so far. */
  messages: readonly AgentMessage[];
  /**
   * Reports a problem that does not stop the run (a predicate that threw); the operator
   * evaluating the predicates turns each call into a `warning` event.
   */
  warn?(message: string): void;
}

/**
 * A stop predicate: `true` (or a `StopSignal`) stops the run after this step; anything else
 * lets it go on. A predicate that throws is reported as a `warning` and does not stop.
 *
 * @example
 * const done: StopCondition = ({ step }) => step.toolCalls.some((c) => c.name === 'finish');
 */
export type StopCondition = (context: StopContext) => boolean | StopSignal | null | undefined | void;

/**
 * What a stop guard sees when the model would stop by itself.
 *
 * @example
 * const guard: StopGuard = ({ step }) => (step.message.content.length ? undefined : { inject: 'Please answer.' });
 */
export interface StopGuardContext {
  step: StepResult;
  steps: readonly StepResult[];
  messages: readonly AgentMessage[];
}

/**
 * A stop guard's verdict: `undefined` (or `{}`) allows the stop, `inject` adds a user message
 * and goes on, `escalate` fails the run with `StopGuardEscalationError`.
 *
 * @example
 * const decision: StopGuardDecision = { escalate: true, reason: 'no answer after 3 reminders' };
 */
export interface StopGuardDecision {
  inject?: string;
  escalate?: boolean;
  reason?: string;
}

/**
 * Consulted when the model would stop by itself (no tool calls, nothing queued).
 *
 * @example
 * const mustUseFinish: StopGuard = ({ step }) =>
 *   step.toolCalls.length ? undefined : { inject: 'Call the finish tool with your answer.' };
 */
export type StopGuard = (context: StopGuardContext) => StopGuardDecision | undefined | void;
