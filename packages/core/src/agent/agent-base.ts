import { asyncScheduler, Subject, type Observable } from 'rxjs';
import { AgentBusyError, AgentConfigError } from '../errors/agent-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import { MessageQueue } from '../turn/message-queue.js';
import { runAgent } from '../loop/run-agent.js';
import type { RunAgentConfig } from '../turn/run-config.js';
import type { OutputSchema } from '../output/output-schema.js';
import type { AgentMessage, Usage } from '../messages/types.js';
import { initialAgentState, type AgentState } from '../state/agent-state.js';
import { StateCell } from '../state/state-cell.js';
import { StateObservable } from '../state/state-observable.js';
import { AgentApprovals } from './agent-approvals.js';
import { AgentElicitations } from './agent-elicitation.js';
import { AgentResources, type AgentResource } from './agent-resource.js';
import { SessionSync } from './session-sync.js';
import { parseTranscript } from './import-messages.js';
import { agentRun, type ActiveRun } from './agent-run.js';
import { AgentContextState } from './agent-context.js';
import type { AgentConfig, AgentListener, AgentRunResult } from './agent-types.js';

export type { AgentConfig, AgentListener, AgentRunResult, QueueOutcome } from './agent-types.js';

/**
 * What every `Agent` has: its state and events, listeners, the run it has going and how a run
 * is started and settled (the `Agent` class adds the public ways to drive it). Not made directly.
 *
 * @example
 * const agent: AgentBase = new Agent({ model });
 */
export abstract class AgentBase<TOutput = unknown> {
  /** Aborts the running run (see `Agent.abort`). */
  abstract abort(options?: { silent?: boolean }): void;
  /** Drops every queued message (see `Agent.clearQueues`). */
  abstract clearQueues(): void;
  /** Reads the session's transcript (see `Agent.loadSession`). */
  abstract loadSession(): Promise<void>;

  protected config: AgentConfig;
  protected readonly state: StateCell<AgentState>;
  protected readonly events = new Subject<AgentEvent>();
  /** Replaced, never changed, so a dispatch in progress keeps the list it started with. */
  protected listeners: readonly AgentListener[] = [];
  protected readonly steering = new MessageQueue();
  protected readonly followUps = new MessageQueue();
  protected readonly approvals: AgentApprovals;
  protected readonly elicitations: AgentElicitations;
  protected active?: ActiveRun;
  protected idleWaiters: (() => void)[] = [];
  protected readonly session?: SessionSync;
  protected loading?: Promise<void>;
  protected readonly resources = new AgentResources();
  protected disposed = false;
  /** The context manager's state of this conversation, across runs. */
  protected readonly context?: AgentContextState;

  /** Every event of every run (hot). */
  readonly events$: Observable<AgentEvent>;
  /** The state across runs; `.value` reads it synchronously. */
  readonly state$: StateObservable<AgentState>;

  constructor(config: AgentConfig & { output?: OutputSchema<TOutput> }) {
    if (!config?.model) throw new AgentConfigError('new Agent() needs a model: pass { model }.');
    if (config.session && config.messages) {
      throw new AgentConfigError(
        'new Agent() takes { session } or { messages }, not both: the session holds the transcript.',
      );
    }
    this.config = config;
    if (config.contextManager) this.context = new AgentContextState(config.contextManager);
    // A failed write (another writer got there first) cancels the run: it could not be kept.
    if (config.session) this.session = new SessionSync(config.session, () => this.abort({ silent: true }));
    this.state = new StateCell(initialAgentState(config.messages ? parseTranscript(config.messages) : []));
    this.approvals = new AgentApprovals(config.approver);
    this.elicitations = new AgentElicitations(config.elicit);
    this.events$ = this.events.asObservable();
    this.state$ = new StateObservable<AgentState>(
      (subscriber) => this.state.subscribe(subscriber),
      () => this.state.value,
    );
  }

  /** The transcript. */
  get messages(): readonly AgentMessage[] {
    return this.state.value.messages;
  }

  /** Total usage of every run so far. */
  get usage(): Usage {
    return this.state.value.usage;
  }

  /** True while a run is active. */
  get isRunning(): boolean {
    return this.active !== undefined;
  }

  /** Resolves when no run is active. */
  waitForIdle(): Promise<void> {
    if (!this.active) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Calls `listener(event, state)` for every event, after the state fold; returns the unsubscribe. */
  subscribe(listener: AgentListener): () => void {
    this.listeners = this.listeners.concat([listener]); // made to size: an agent holds it
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners = this.listeners.filter((_, at) => at !== i);
    };
  }

  /** Ties a resource (a task runtime…) to this agent: reset with `reset()`, disposed with `dispose()`. */
  own(resource: AgentResource): () => void {
    if (this.disposed) {
      resource.dispose?.();
      return () => undefined;
    }
    return this.resources.add(resource);
  }

  /** Cancels the running run, disposes owned resources and completes `events$` and `state$`. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.abort({ silent: true });
    this.clearQueues();
    for (const error of this.resources.tell('dispose'))
      this.report(error, 'dispose(): an owned resource failed');
    this.listeners = [];
    this.events.complete();
    this.state.complete();
  }

  protected scheduler() {
    return this.config.scheduler ?? asyncScheduler;
  }

  protected start(prompt: RunAgentConfig['prompt']): Promise<AgentRunResult<TOutput>> {
    if (this.disposed)
      return Promise.reject(new AgentConfigError('The agent was disposed: create a new Agent.'));
    const sync = this.session;
    if (!sync) return this.run(prompt);
    if (this.active || this.loading) return Promise.reject(new AgentBusyError());
    const ready = sync.isCurrent ? Promise.resolve() : this.loadSession();
    // The run's promise settles once its messages are written (a failed write rejects it).
    return ready
      .then(() => this.run(prompt))
      .then(
        (result) => sync.flush().then(() => result),
        (error: unknown) =>
          sync.flush().then(
            () => Promise.reject(error as Error),
            () => Promise.reject(error as Error),
          ),
      );
  }

  protected run(prompt: RunAgentConfig['prompt']): Promise<AgentRunResult<TOutput>> {
    if (this.active) return Promise.reject(new AgentBusyError());
    const active: ActiveRun = {
      controller: new AbortController(),
      cancel: new Subject<void>(),
      silent: false,
      before: this.messages.length,
    };
    this.active = active;
    const { onError: _onError, messages: _initial, session: _session, ...runConfig } = this.config;
    const run$ = runAgent({
      ...runConfig,
      ...(this.context ? { contextManager: this.context.forRun() } : {}),
      messages: this.messages,
      prompt,
      signal: active.controller.signal,
      steering$: this.steering,
      followUp$: this.followUps,
      approver: this.approvals.approver,
      elicit: this.elicitations.elicit,
    });
    return agentRun<TOutput>(run$, active, {
      state: this.state,
      now: () => this.scheduler().now(),
      dispatch: (event) => this.dispatch(event),
      sync: () => this.session?.sync(this.messages),
      settle: () => this.settle(),
    });
  }

  protected dispatch(event: AgentEvent): void {
    const state = this.state.value;
    for (const listener of this.listeners) {
      try {
        listener(event, state);
      } catch (error) {
        this.report(error, `A listener threw on "${event.type}" and was skipped`);
      }
    }
    this.events.next(event);
  }

  protected settle(): void {
    this.active = undefined;
    // What the end of the run closed (cancelled calls, a partial answer) is kept too.
    this.session?.sync(this.messages);
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  protected report(error: unknown, context: string): void {
    if (this.config.onError) this.config.onError(error, context);
    else console.error(`[rxagent] ${context}:`, error);
  }
}
