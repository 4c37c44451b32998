import type { Observable } from 'rxjs';
import type { AgentEvent, StepResult } from '../events/agent-event.js';
import type { StopSignal } from '../events/stop-signal.js';
import type { ToolGuardrail } from '../guardrails/guardrail.js';
import type {
  AgentMessage,
  AssistantMessage,
  Message,
  ToolResultMessage,
  UserMessage,
  Usage,
} from '../messages/types.js';
import type { ToolSpec } from '../model/chat-model.js';
import type { StopGuard } from '../stop/stop-condition.js';
import type { AnyTool } from '../tools/tool.js';
import type { AppendLog } from '../util/append-log.js';
import type { EagerHandle } from './eager-handle.js';
import type { MessageQueue } from './message-queue.js';
import type { RunFacts, SteeringQueue } from './run-facts.js';

/** @internal What a `Turn` is made of (see the class for each field). */
export interface TurnFields {
  readonly run: RunFacts;
  readonly step: number;
  readonly log: AppendLog<AgentMessage>;
  readonly modelLog: AppendLog<Message>;
  readonly stepLog: AppendLog<StepResult>;
  readonly usage: Usage;
  readonly context?: readonly Message[];
  readonly recoverOverflow?: (error: unknown) => Observable<TurnContextUpdate>;
  readonly assistant?: AssistantMessage;
  readonly toolResults?: readonly ToolResultMessage[];
  readonly stop?: StopSignal;
  readonly next: readonly UserMessage[];
  readonly steering: readonly SteeringQueue[];
  readonly followUps: readonly MessageQueue[];
  readonly guards: readonly StopGuard[];
  readonly toolGuardrails: readonly ToolGuardrail[];
  readonly toolErrors: ReadonlyMap<string, number>;
  readonly lengthRecoveries: number;
  readonly toolSet?: ToolSet;
  readonly output?: unknown;
  readonly operators: Readonly<Record<string, unknown>>;
  readonly eager?: EagerHandle;
}

/** @internal Tools that replace the run's from some turn on (`withTools`). */
export interface ToolSet {
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly specs: readonly ToolSpec[];
}

/**
 * What a context manager's overflow recovery produced for the retried call.
 *
 * @example
 * const update: TurnContextUpdate = { messages: shorter, events: [{ type: 'compaction', strategy: 'trim', tokensBefore: 9e4, tokensAfter: 4e4, summarized: 0 }] };
 */
export interface TurnContextUpdate {
  readonly messages: readonly Message[];
  readonly events: readonly AgentEvent[];
  /** Usage of the work the recovery did (a summary call), added to the run's. */
  readonly usage?: Usage;
  /** The context manager's state after the recovery (`ContextProjection.state`), when it returned one. */
  readonly state?: unknown;
}
