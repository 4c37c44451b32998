import type { Observable, SchedulerLike } from 'rxjs';
import type { ChatModel, ToolSpec } from '../model/chat-model.js';
import type { AnyTool } from '../tools/tool.js';
import type { MessageQueue, UserInput } from './message-queue.js';
import type { RunAgentConfig } from './run-config.js';

/**
 * The fixed facts of one run, shared by all its turns: nothing here changes during the run
 * except what `attach` keeps subscribed.
 *
 * @example
 * const logRun: LoopOperator = tap((item) => isTurn(item) && console.log(item.run.runId, item.run.tools.size));
 */
export interface RunFacts {
  readonly runId: string;
  readonly config: RunAgentConfig;
  readonly model: ChatModel;
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** The tools as the model sees them (converted once per run). */
  readonly toolSpecs: readonly ToolSpec[];
  readonly scheduler: SchedulerLike;
  /** Aborted when the run is aborted or unsubscribed. */
  readonly signal: AbortSignal;
  /** `scheduler.now()` when the run started. */
  readonly startedAt: number;
  /** How many messages the run started from (its prior transcript); the rest are its own. */
  readonly priorLength: number;
  /**
   * Keeps a message source subscribed until the run ends (once per source, however many
   * turns ask) and returns the queue it feeds. An error of the source becomes a `warning`.
   */
  attach(source: Observable<UserInput> | MessageQueue): MessageQueue;
}

/**
 * A message queue that steers a run, with how it interrupts tools.
 *
 * @example
 * const steering: SteeringQueue = { queue: new MessageQueue(), mode: 'interrupt' };
 */
export interface SteeringQueue {
  readonly queue: MessageQueue;
  readonly mode: 'interrupt' | 'after-turn';
}
