import type { Observable } from 'rxjs';
import type { StepResult } from '../events/agent-event.js';
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
import { emptyUsage } from '../messages/usage.js';
import type { ToolSpec } from '../model/chat-model.js';
import type { StopGuard } from '../stop/stop-condition.js';
import type { AnyTool } from '../tools/tool.js';
import type { AppendLog } from '../util/append-log.js';
import type { EagerHandle } from './eager-handle.js';
import type { MessageQueue } from './message-queue.js';
import type { RunFacts, SteeringQueue } from './run-facts.js';
import type { ToolSet, TurnContextUpdate, TurnFields } from './turn-fields.js';

/**
 * What a `Turn` holds, and what can be read of it (the `Turn` class adds the ways to change it:
 * its `with…` methods). Not made directly.
 *
 * @example
 * const summary = (turn: Turn) => ({ step: turn.step, messages: turn.messageCount, tokens: turn.usage.totalTokens });
 */
export abstract class TurnValue {
  /** Tells a turn from the events around it in the pipeline. */
  readonly type = 'turn' as const;
  readonly run: RunFacts;
  /** 1-based. */
  readonly step: number;
  /** Usage of the run so far (this turn's model message included once it has one). */
  readonly usage: Usage;
  /** The messages to send instead of `modelMessages` (set by `compactContext`). */
  readonly context?: readonly Message[];
  /** Called once by `llmStep` on a context overflow (set by `compactContext`). */
  readonly recoverOverflow?: (error: unknown) => Observable<TurnContextUpdate>;
  /** The model's message (set by `llmStep`). */
  readonly assistant?: AssistantMessage;
  /** The results of this turn's calls in call order (set by `executeTools`). */
  readonly toolResults?: readonly ToolResultMessage[];
  /** Set to end the run after this turn. */
  readonly stop?: StopSignal;
  /** Messages delivered at the start of the next turn (length recovery, stop guards). */
  readonly next: readonly UserMessage[];
  /** Steering queues this turn listens to (the config's and those `steer()` attached). */
  readonly steering: readonly SteeringQueue[];
  /** Queues delivered when the run would stop. */
  readonly followUps: readonly MessageQueue[];
  /** Consulted when the model would stop by itself. */
  readonly guards: readonly StopGuard[];
  /** Tool guardrails `toolGuard()` put around the calls of this turn and the turns after it. */
  readonly toolGuardrails: readonly ToolGuardrail[];
  /** Consecutive failures per tool name (the `maxToolErrors` circuit breaker). */
  readonly toolErrors: ReadonlyMap<string, number>;
  /** Output-length recoveries so far in the run. */
  readonly lengthRecoveries: number;
  /** @internal */
  readonly toolSet?: ToolSet;
  /** The validated final answer of a run with `output` (set by its structured-output stage). */
  readonly output?: unknown;
  /** What operators keep for the rest of the run, by operator name (JSON values). */
  /** @internal */
  readonly operators: Readonly<Record<string, unknown>>;
  /** @internal */
  readonly log: AppendLog<AgentMessage>;
  /** @internal */
  readonly modelLog: AppendLog<Message>;
  /** @internal */
  readonly stepLog: AppendLog<StepResult>;
  /** @internal Calls of eager tools started while this turn's model message streamed (set by `llmStep`). */
  readonly eager?: EagerHandle;

  /** @internal Use `Turn.first` or the `with…` methods. */
  constructor(fields: TurnFields) {
    this.run = fields.run;
    this.step = fields.step;
    this.log = fields.log;
    this.modelLog = fields.modelLog;
    this.stepLog = fields.stepLog;
    this.usage = fields.usage;
    this.context = fields.context;
    this.recoverOverflow = fields.recoverOverflow;
    this.assistant = fields.assistant;
    this.toolResults = fields.toolResults;
    this.stop = fields.stop;
    this.next = fields.next;
    this.steering = fields.steering;
    this.followUps = fields.followUps;
    this.guards = fields.guards;
    this.toolGuardrails = fields.toolGuardrails;
    this.toolErrors = fields.toolErrors;
    this.lengthRecoveries = fields.lengthRecoveries;
    this.toolSet = fields.toolSet;
    this.output = fields.output;
    this.operators = fields.operators;
    this.eager = fields.eager;
  }

  /** The transcript as of this point: a read-only snapshot (later appends never change it). */
  get messages(): readonly AgentMessage[] {
    return this.log.view();
  }

  /** What the model sees of the transcript (custom messages left out). */
  get modelMessages(): readonly Message[] {
    return this.modelLog.view();
  }

  /** Every completed step of the run before this one. */
  get steps(): readonly StepResult[] {
    return this.stepLog.view();
  }

  /** How many messages the transcript holds. */
  get messageCount(): number {
    return this.log.length;
  }

  /**
   * What the operator `name` keeps for the rest of the run (a retry count, warnings given), as
   * it last stored it with `withOperatorState`; undefined at first. Values are plain JSON, so a
   * snapshot of the turn carries them.
   *
   * @example
   * const retries = turn.operatorState<number>('myRetry') ?? 0;
   */
  operatorState<T>(name: string): T | undefined {
    return this.operators[name] as T | undefined;
  }

  /** @internal Every operator's state (for snapshots). */
  operatorStates(): Readonly<Record<string, unknown>> {
    return this.operators;
  }

  /** The tools the model is offered this turn: the run's, unless `withTools` changed them. */
  get tools(): ReadonlyMap<string, AnyTool> {
    return this.toolSet?.tools ?? this.run.tools;
  }

  /** The tools as the model sees them this turn. */
  get toolSpecs(): readonly ToolSpec[] {
    return this.toolSet?.specs ?? this.run.toolSpecs;
  }

  /** @internal This turn's step as a `StepResult` (needs the model's message). */
  stepResult(): StepResult | undefined {
    const message = this.assistant;
    if (!message) return undefined;
    return {
      step: this.step,
      message,
      toolCalls: message.content.filter((p) => p.type === 'tool-call'),
      toolResults: [...(this.toolResults ?? [])],
      usage: message.usage ?? emptyUsage(),
      finishReason: message.stopReason,
    };
  }
}
