import { Subscription, type Observable, type SchedulerLike } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { ChatModel, ToolSpec } from '../model/chat-model.js';
import type { AnyTool } from '../tools/tool.js';
import { toToolSpec } from '../tools/validate-args.js';
import { LazyAbortController } from '../util/lazy-abort.js';
import { MessageQueue, type UserInput } from '../turn/message-queue.js';
import type { RunAgentConfig } from '../turn/run-config.js';
import type { RunFacts, StartedSource } from '../turn/run-facts.js';
import { runSettings, type RunSettings } from '../turn/run-settings.js';
import { runLineage, type RunLineage } from '../tools/run-lineage.js';
import { runRequirements } from '../turn/run-requirements.js';
import type { RunRequirements } from '../turn/run-snapshot.js';
import { toolMap } from '../turn/tool-map.js';

/**
 * Where a run's scope reports what happens outside its turns (a message source that failed).
 *
 * @example
 * const reporter: RunReporter = { report: (event) => out.next(event) };
 */
export interface RunReporter {
  report(event: AgentEvent): void;
}

/**
 * The facts of one run and what lives as long as it: the run's abort signal and the message
 * sources kept subscribed for it. Made when the run is subscribed, closed when it ends.
 *
 * @example
 * const scope = new RunScope(config, scheduler, runId, 0, { report: (e) => out.next(e) });
 * scope.close(false);
 */
export class RunScope implements RunFacts {
  readonly model: ChatModel;
  readonly settings: RunSettings;
  // Made on first use: most runs never start a sub-run.
  get lineage(): RunLineage {
    return (this.madeLineage ??= runLineage(this.runId, this.config.lineage));
  }
  private madeLineage?: RunLineage;
  private readonly config: RunAgentConfig;

  // Made when a snapshot asks for it: most runs are never snapshotted.
  get requires(): RunRequirements {
    return (this.required ??= runRequirements(this.config));
  }
  private required?: RunRequirements;
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly toolSpecs: readonly ToolSpec[];
  readonly startedAt: number;
  // Made on first use: most runs never read the signal, and an AbortController costs ~2 KB.
  private readonly cancel = new LazyAbortController();
  private sources?: Map<Observable<UserInput>, MessageQueue>;
  private subscriptions?: Subscription;

  constructor(
    config: RunAgentConfig,
    readonly scheduler: SchedulerLike,
    readonly runId: string,
    readonly priorLength: number,
    private readonly reporter: RunReporter,
    elapsedMs = 0,
  ) {
    this.model = config.model;
    this.settings = runSettings(config);
    this.config = config;
    this.tools = toolMap(config.tools);
    this.toolSpecs = Object.freeze([...this.tools.values()].map(toToolSpec));
    this.startedAt = scheduler.now() - elapsedMs;
  }

  get signal(): AbortSignal {
    return this.cancel.signal;
  }

  attach(source: Observable<UserInput> | MessageQueue, started?: StartedSource): MessageQueue {
    if (source instanceof MessageQueue) return source;
    const sources = (this.sources ??= new Map<Observable<UserInput>, MessageQueue>());
    const known = sources.get(source);
    if (known) {
      started?.subscription.unsubscribe();
      return known;
    }
    if (started) {
      sources.set(source, started.queue);
      (this.subscriptions ??= new Subscription()).add(() => started.subscription.unsubscribe());
      return started.queue;
    }
    const fed = new MessageQueue();
    sources.set(source, fed);
    (this.subscriptions ??= new Subscription()).add(
      source.subscribe({
        next: (message) => fed.push(message),
        error: (error: unknown) =>
          this.warn(
            `A message source of the run failed and was detached: ${error instanceof Error ? error.message : String(error)}`,
          ),
      }),
    );
    return fed;
  }

  warn(message: string): void {
    this.reporter.report({ type: 'warning', message });
  }

  /** Ends what lives with the run; `early` (aborted, unsubscribed, failed) aborts its signal. */
  close(early: boolean): void {
    if (early) this.cancel.abort('cancelled');
    this.subscriptions?.unsubscribe();
  }
}
