import type { Observable, OperatorFunction, SchedulerLike } from 'rxjs';
import type { AgentEvent, StepResult } from '../events/agent-event.js';
import type {
  AgentMessage,
  AssistantMessage,
  Message,
  ToolResultMessage,
  UserMessage,
  Usage,
} from '../messages/types.js';
import type { ChatModel } from '../model/chat-model.js';
import type { StopGuard } from '../stop/stop-condition.js';
import type { StopSignal } from '../stop/stop-signal.js';
import type { AnyTool } from '../tools/tool.js';
import type { MessageQueue } from './message-queue.js';
import type { RunAgentConfig } from './run-config.js';

/**
 * What the operators of one run share. Read it from the `run-context` item (first in the
 * stream) or from `turn.run`. The transcript is append-only and written by the loop from
 * `message-end` events, so operators add messages by emitting them.
 *
 * @example
 * const logRun = (): LoopOperator =>
 *   turnOperator((_turn, io) => io.done(), (run) => console.log(run.runId, run.tools.size, run.messages.length));
 */
export interface RunContext {
  readonly runId: string;
  readonly config: RunAgentConfig;
  readonly model: ChatModel;
  readonly scheduler: SchedulerLike;
  /** Aborted when the run is aborted or unsubscribed. */
  readonly signal: AbortSignal;
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** The transcript: prior messages and those this run appended. */
  readonly messages: readonly AgentMessage[];
  /** What the model sees of the transcript (custom and empty messages left out). */
  readonly modelMessages: readonly Message[];
  readonly steps: readonly StepResult[];
  readonly usage: Usage;
  /** `scheduler.now()` when the run started. */
  readonly startedAt: number;
  /** Queues whose messages are delivered at the start of the next turn (see `steer`). */
  readonly steering: { queue: MessageQueue; mode: 'interrupt' | 'after-turn' }[];
  /** Queues whose messages are delivered only when the run would stop. */
  readonly followUps: MessageQueue[];
  readonly stopGuards: StopGuard[];
  /** Consecutive failures per tool name (the `maxToolErrors` circuit breaker). */
  readonly toolErrors: Map<string, number>;
  lengthRecoveries: number;
}

/**
 * One turn as it travels through the pipeline: each operator reads and fills it, then passes
 * it on. The loop reads it when it comes out to decide what happens next.
 *
 * @example
 * const noEmptyAnswers = (): LoopOperator => turnOperator((turn, io) => {
 *   if (turn.assistant?.stopReason === 'stop' && !assistantText(turn.assistant)) turn.next.push(userMessage('Answer?'));
 *   io.done();
 * });
 */
export interface TurnContext {
  readonly run: RunContext;
  readonly step: number;
  /** The messages for this call when a context manager rewrote them (else `run.modelMessages`). */
  context?: readonly Message[];
  /** Called by `llmStep` once on a context overflow; set by `compactContext`. */
  recoverOverflow?: (error: unknown) => Observable<readonly Message[]>;
  /** The model's message, set by `llmStep`. */
  assistant?: AssistantMessage;
  /** The results of this turn's calls in call order, set by `executeTools`. */
  toolResults: ToolResultMessage[];
  /** Set by an operator to end the run after this turn. */
  stop?: StopSignal;
  /** Messages to deliver at the start of the next turn (length recovery, stop guards). */
  readonly next: UserMessage[];
}

/**
 * The first item of a run's stream: its shared context. Never leaves `runAgent`.
 *
 * @example
 * if (item.type === 'run-context') console.log('run', item.run.runId, 'started at', item.run.startedAt);
 */
export interface RunContextItem {
  readonly type: 'run-context';
  readonly run: RunContext;
}

/**
 * A turn travelling through the pipeline. Never leaves `runAgent`.
 *
 * @example
 * if (item.type === 'turn-context') console.log('step', item.turn.step, item.turn.assistant?.stopReason);
 */
export interface TurnContextItem {
  readonly type: 'turn-context';
  readonly turn: TurnContext;
}

/**
 * What flows through a run's pipeline: the public events, plus control items that carry the
 * run's and the turn's context between operators (and never reach subscribers).
 *
 * @example
 * const pipeline = (turn$: Observable<LoopEvent>) => turn$.pipe(llmStep(), executeTools(), stopWhen(stepCountIs(3)));
 */
export type LoopEvent = AgentEvent | RunContextItem | TurnContextItem;

/**
 * An operator of the loop body.
 *
 * @example
 * const logTurns: LoopOperator = tap((e) => e.type === 'turn-start' && console.log('step', e.step));
 */
export type LoopOperator = OperatorFunction<LoopEvent, LoopEvent>;

/**
 * True for the control items that never leave the loop.
 *
 * @example
 * const publicOnly = (item: LoopEvent) => !isControlItem(item);
 */
export function isControlItem(item: LoopEvent): item is RunContextItem | TurnContextItem {
  return item.type === 'run-context' || item.type === 'turn-context';
}
