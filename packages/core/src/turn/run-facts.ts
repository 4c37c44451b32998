import type { Observable, SchedulerLike, Unsubscribable } from 'rxjs';
import type { ChatModel, ToolSpec } from '../model/chat-model.js';
import type { AnyTool } from '../tools/tool.js';
import type { MessageQueue, UserInput } from './message-queue.js';
import type { RunLineage } from '../tools/run-lineage.js';
import type { RunSettings } from './run-settings.js';
import type { RunRequirements } from './run-snapshot.js';

/**
 * The fixed facts of one run, shared by all its turns: nothing here changes during the run
 * except what `attach` keeps subscribed.
 *
 * @example
 * const logRun: LoopOperator = tap((item) => isTurn(item) && console.log(item.run.runId, item.run.tools.size));
 */
export interface RunFacts {
  readonly runId: string;
  /** Its settings, defaults resolved (what operators fall back on). */
  readonly settings: RunSettings;
  /** Where it sits among the runs that started it (depth, top-level run, sub-run count). */
  readonly lineage: RunLineage;
  /** What a process resuming a snapshot of this run must supply again, by name. */
  readonly requires: RunRequirements;
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
   * `started`: the subscription an operator already made for this run (so messages that came
   * before its turn are kept) — the run takes it over, or drops it when it already listens to
   * this source.
   */
  attach(source: Observable<UserInput> | MessageQueue, started?: StartedSource): MessageQueue;
  /** Emits a `warning` event on the run's stream (something was ignored or recovered). */
  warn(message: string): void;
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

/**
 * A message source an operator subscribed for its run before the run took it over.
 *
 * @example
 * const queue = turn.run.attach(input$, { queue: fed, subscription });
 */
export interface StartedSource {
  readonly queue: MessageQueue;
  readonly subscription: Unsubscribable;
}
