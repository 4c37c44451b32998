import { asyncScheduler, BehaviorSubject, Subject, takeUntil, type Observable } from 'rxjs';
import type { CompactionInfo } from '../context/context-manager.js';
import type { ContextUsage } from '../events/context-usage.js';
import { AgentBusyError, AgentConfigError } from '../errors/agent-errors.js';
import type { AgentEndEvent, AgentEvent } from '../events/agent-event.js';
import { MessageQueue, toUserMessage, type UserInput } from '../turn/message-queue.js';
import { runAgent } from '../loop/run-agent.js';
import type { RunAgentConfig } from '../turn/run-config.js';
import type { OutputSchema } from '../output/output-schema.js';
import type { AgentMessage, Usage } from '../messages/types.js';
import { addUsage, emptyUsage } from '../messages/usage.js';
import type { ChatModel, SystemBlock } from '../model/chat-model.js';
import { initialAgentState, type AgentState } from '../state/agent-state.js';
import { foldRun } from '../state/fold-run.js';
import { reduceAgentState } from '../state/reduce-agent-state.js';
import { StateObservable } from '../state/state-observable.js';
import { stopSignal, type StopReason, type StopSignal } from '../events/stop-signal.js';
import type { AnyTool } from '../tools/tool.js';
import { AgentApprovals } from './agent-approvals.js';
import { AgentElicitations, type ElicitationReply } from './agent-elicitation.js';
import { compactTranscript } from './agent-compact.js';
import { AgentResources, type AgentResource } from './agent-resource.js';
import { parseTranscript } from './import-messages.js';
import type { RecordedEvent } from '../replay/recorded-event.js';
import { resumeTranscript } from '../replay/resume-transcript.js';
import { repairMessageSequence } from '../messages/message-sequence.js';
import type { Session } from '../session/session.js';
import { SessionSync } from './session-sync.js';

/**
 * What `new Agent()` takes: a run config without the per-run keys, plus the first transcript.
 *
 * @example
 * const config: AgentConfig = { model, tools: [weather], system: 'Be brief.', messages: savedTranscript };
 */
export interface AgentConfig extends Omit<
  RunAgentConfig,
  'prompt' | 'messages' | 'signal' | 'steering$' | 'followUp$' | 'runId'
> {
  /** The transcript to start from. */
  messages?: readonly AgentMessage[];
  /**
   * Where the conversation persists: loaded before the first run, each completed message
   * appended (instead of `messages`).
   */
  session?: Session;
  /** Where a throwing listener (or a failed auto-resumed run) is reported. Default: console.error. */
  onError?: (error: unknown, context: string) => void;
}

/**
 * What a run of the agent produced.
 *
 * @example
 * const result: AgentRunResult = await agent.prompt('Weather in Paris?');
 * if (result.reason === 'completed') console.log(assistantText(result.messages.at(-1)));
 */
export interface AgentRunResult<TOutput = unknown> {
  reason: StopReason;
  signal: StopSignal;
  /** The messages this run appended to the transcript. */
  messages: AgentMessage[];
  usage: Usage;
  steps: number;
  /** The validated final answer, for an agent with `output`. */
  output?: TOutput;
}

/**
 * Called with each event and the state after folding it.
 *
 * @example
 * const log: AgentListener = (event, state) => console.log(event.type, state.phase);
 * const unsubscribe = agent.subscribe(log);
 */
export type AgentListener = (event: AgentEvent, state: AgentState) => void;

/**
 * How a queued message will be delivered.
 *
 * @example
 * const outcome: QueueOutcome = agent.steer('Skip the tests folder.'); // 'steered' while a run is active
 */
export type QueueOutcome = 'steered' | 'resumed' | 'queued';

interface ActiveRun {
  controller: AbortController;
  /** Cancels the run (`takeUntil`): reachable before `subscribe` returns, so a listener can stop a synchronous run. */
  cancel: Subject<void>;
  /** A silent abort: the partial answer is dropped. */
  silent: boolean;
  /** Where this run's messages start in the transcript. */
  before: number;
}

/**
 * A stateful agent: keeps the transcript across runs, queues steering and follow-up messages,
 * takes approvals, and exposes its events and state to subscribe to. Each `prompt()` is one
 * `runAgent` run over the transcript so far; after any abort or failure the transcript is
 * still valid for the next one.
 *
 * @example
 * const agent = new Agent({ model: openai('gpt-4o-mini'), tools: [weather], system: 'Be brief.' });
 * // With `output: z.object({...})`, `(await agent.prompt(…)).output` is typed by the schema.
 * agent.subscribe((event) => event.type === 'message-update' && process.stdout.write(event.delta.text));
 * const result = await agent.prompt('Weather in Paris?');
 * await agent.prompt('And in Rome?'); // sees the first exchange
 */
export class Agent<TOutput = unknown> {
  private config: AgentConfig;
  private readonly state: BehaviorSubject<AgentState>;
  private readonly events = new Subject<AgentEvent>();
  private readonly listeners: AgentListener[] = [];
  private readonly steering = new MessageQueue();
  private readonly followUps = new MessageQueue();
  private readonly approvals: AgentApprovals;
  private readonly elicitations: AgentElicitations;
  private active?: ActiveRun;
  private idleWaiters: (() => void)[] = [];
  private readonly session?: SessionSync;
  private loading?: Promise<void>;
  private readonly resources = new AgentResources();
  private disposed = false;

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
    // A failed write (another writer got there first) cancels the run: it could not be kept.
    if (config.session) this.session = new SessionSync(config.session, () => this.abort({ silent: true }));
    this.state = new BehaviorSubject(
      initialAgentState(config.messages ? parseTranscript(config.messages) : []),
    );
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

  /** Runs the agent on a new input; rejects with `AgentBusyError` while a run is active. */
  prompt(input: UserInput | AgentMessage | AgentMessage[]): Promise<AgentRunResult<TOutput>> {
    return this.start(input);
  }

  /**
   * Runs again from the transcript as it is. After an assistant message it needs something
   * queued: the steering queue is taken as the prompt, else the follow-ups.
   */
  continue(): Promise<AgentRunResult<TOutput>> {
    if (this.active) return Promise.reject(new AgentBusyError());
    const last = this.messages[this.messages.length - 1];
    if (!last)
      return Promise.reject(
        new AgentConfigError('Cannot continue an empty transcript: call prompt() first.'),
      );
    if (last.role !== 'assistant') return this.start(undefined);
    const queued = this.steering.size > 0 ? this.steering.drain() : this.followUps.drain();
    if (queued.length === 0) {
      return Promise.reject(
        new AgentConfigError(
          'Cannot continue from an assistant message: queue a message with steer() or followUp(), or call prompt().',
        ),
      );
    }
    const now = this.scheduler().now();
    return this.start(queued.map((m) => toUserMessage(m, now)));
  }

  /** Delivers a message into the running run (after the running tool), or at the next run's start. */
  steer(message: UserInput): QueueOutcome {
    this.steering.push(message);
    return this.active ? 'steered' : 'queued';
  }

  /** Delivers a message when the run would otherwise stop (or in the next run). */
  followUp(message: UserInput): QueueOutcome {
    this.followUps.push(message);
    return 'queued';
  }

  /** Steers the running run, or — idle after an assistant message — resumes with the message. */
  inject(message: UserInput): QueueOutcome {
    this.steering.push(message);
    if (this.active) return 'steered';
    if (this.messages[this.messages.length - 1]?.role !== 'assistant') return 'queued';
    this.continue().catch((error: unknown) => this.report(error, 'inject(): the resumed run failed'));
    return 'resumed';
  }

  /** Drops every queued steering and follow-up message. */
  clearQueues(): void {
    this.steering.clear();
    this.followUps.clear();
  }

  /**
   * Aborts the running run: the model sees an abort marker next time. With `silent` the run
   * is cancelled at once — even from a listener, before `prompt()`'s run got past its first
   * event — with no marker, and the partial answer is dropped.
   */
  abort(options: { silent?: boolean } = {}): void {
    const active = this.active;
    if (!active) return;
    if (!options.silent) return active.controller.abort();
    active.silent = true;
    active.cancel.next();
  }

  /**
   * Loads the transcript from the config's `session` (done before the first run anyway, and
   * again after a failed write). Calls a crashed process left open get a synthetic error
   * result, written back to the session. Rejects with `InvalidTranscriptError` for a transcript that is
   * not valid, with `AgentBusyError` while a run is active.
   */
  loadSession(): Promise<void> {
    const sync = this.session;
    if (!sync) return Promise.resolve();
    if (this.active)
      return Promise.reject(new AgentBusyError('Cannot load the session while a run is active.'));
    this.loading ??= sync
      .load()
      .then((loaded) => {
        // A process that died mid-run left calls without results: close them, and keep that.
        const { messages } = repairMessageSequence(loaded, this.scheduler().now());
        this.state.next({ ...this.state.value, messages: parseTranscript(messages) });
        sync.sync(this.messages);
      })
      .finally(() => (this.loading = undefined));
    return this.loading;
  }

  /** Resolves when no run is active. */
  waitForIdle(): Promise<void> {
    if (!this.active) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Approves a pending tool call; false when no such call waits. */
  approve(toolCallId: string): boolean {
    if (!this.state.value.pendingApprovals.some((a) => a.toolCallId === toolCallId)) return false;
    this.approvals.decide(toolCallId, true);
    return true;
  }

  /** Rejects a pending tool call with a reason the model reads; false when no such call waits. */
  reject(toolCallId: string, reason?: string): boolean {
    if (!this.state.value.pendingApprovals.some((a) => a.toolCallId === toolCallId)) return false;
    this.approvals.decide(toolCallId, false, reason);
    return true;
  }

  /**
   * Answers a pending elicitation (a tool asking for information): the values, checked against
   * its form (invalid values decline it, with the reason), or `'decline'` / `'cancel'`. False
   * when no such elicitation waits.
   */
  respond(elicitationId: string, reply: ElicitationReply): boolean {
    if (!this.state.value.pendingElicitations.some((e) => e.elicitationId === elicitationId)) return false;
    this.elicitations.respond(elicitationId, reply);
    return true;
  }

  /** Calls `listener(event, state)` for every event, after the state fold; returns the unsubscribe. */
  subscribe(listener: AgentListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** A JSON-safe copy of the transcript. */
  exportMessages(): AgentMessage[] {
    return JSON.parse(JSON.stringify(this.messages)) as AgentMessage[];
  }

  /** Replaces the transcript; throws `InvalidTranscriptError` (keeping the old one) when it is not valid. */
  importMessages(input: string | readonly unknown[]): void {
    if (this.active)
      throw new AgentBusyError('Cannot import messages while a run is active: await waitForIdle() first.');
    const messages = parseTranscript(input);
    this.state.next({ ...this.state.value, messages });
    this.session?.replace(messages);
    this.config.contextManager?.sync?.(messages);
  }

  /** Restores the transcript of a run recorded (`recordRun` of @rxagent/replay) that stopped anywhere (a
   * crash mid-tool): open tool calls get their results (`resumeTranscript`); then `continue()`.
   * Throws `AgentBusyError` while a run is active. */
  resume(log: readonly (RecordedEvent | AgentEvent)[]): void {
    this.importMessages(resumeTranscript(log));
  }

  /**
   * How full the context is, as the context manager last saw it (`contextManager` with
   * `usage()`, e.g. `contextEngine`); undefined without one.
   */
  contextUsage(): ContextUsage | undefined {
    return this.config.contextManager?.usage?.() ?? this.state.value.contextUsage;
  }

  /**
   * Compacts the transcript now (the context manager's committed rewrite): the transcript is
   * replaced by the manager's (a summary checkpoint and the recent messages), a `compaction`
   * event says what happened. Resolves with what was done, or undefined when there was
   * nothing to compact. Rejects with `AgentBusyError` while a run is active, and with
   * `AgentConfigError` without a manager that can `compact`; a failed compaction keeps the
   * transcript as it was.
   */
  async compact(): Promise<CompactionInfo | undefined> {
    if (this.active)
      throw new AgentBusyError('Cannot compact while a run is active: await waitForIdle() first.');
    const manager = this.config.contextManager;
    if (!manager?.compact) {
      throw new AgentConfigError(
        'compact() needs a contextManager with compact(), e.g. contextEngine({ model }).',
      );
    }
    const commit = await compactTranscript(
      { ...manager, compact: manager.compact.bind(manager) },
      this.messages,
      this.scheduler(),
      (e) => {
        this.state.next(reduceAgentState(this.state.value, e));
        this.dispatch(e);
      },
    );
    if (!commit.compaction) return undefined;
    const event: AgentEvent = { type: 'compaction', ...commit.compaction };
    this.state.next({ ...reduceAgentState(this.state.value, event), messages: commit.messages });
    manager.sync?.(commit.messages);
    this.dispatch(event);
    if (commit.usage) {
      const usageEvent: AgentEvent = { type: 'context-usage', usage: commit.usage };
      this.state.next(reduceAgentState(this.state.value, usageEvent));
      this.dispatch(usageEvent);
    }
    return commit.compaction;
  }

  /** Clears the transcript, the queues and the usage (a running run is cancelled first); owned resources are reset. */
  reset(): void {
    this.abort({ silent: true });
    this.clearQueues();
    this.state.next(initialAgentState());
    this.session?.replace([]);
    this.config.contextManager?.sync?.([]);
    for (const error of this.resources.tell('reset')) this.report(error, 'reset(): an owned resource failed');
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
    this.listeners.length = 0;
    this.events.complete();
    this.state.complete();
  }

  setModel(model: ChatModel): void {
    this.config = { ...this.config, model };
  }

  setTools(tools: readonly AnyTool[]): void {
    this.config = { ...this.config, tools };
  }

  setSystem(system: string | SystemBlock[] | undefined): void {
    this.config = { ...this.config, system };
  }

  private scheduler() {
    return this.config.scheduler ?? asyncScheduler;
  }

  private start(prompt: RunAgentConfig['prompt']): Promise<AgentRunResult<TOutput>> {
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

  private run(prompt: RunAgentConfig['prompt']): Promise<AgentRunResult<TOutput>> {
    if (this.active) return Promise.reject(new AgentBusyError());
    return new Promise<AgentRunResult<TOutput>>((resolve, reject) => {
      const active: ActiveRun = {
        controller: new AbortController(),
        cancel: new Subject<void>(),
        silent: false,
        before: this.messages.length,
      };
      this.active = active;
      let end: AgentEndEvent | undefined;
      const { onError: _onError, messages: _initial, session: _session, ...runConfig } = this.config;
      const run$ = runAgent({
        ...runConfig,
        messages: this.messages,
        prompt,
        signal: active.controller.signal,
        steering$: this.steering,
        followUp$: this.followUps,
        approver: this.approvals.approver,
        elicit: this.elicitations.elicit,
      });
      run$
        .pipe(
          takeUntil(active.cancel),
          foldRun(this.state, { now: () => this.scheduler().now(), dropPartial: () => active.silent }),
        )
        .subscribe({
          next: (event) => {
            // The run may have repaired the transcript it starts from.
            if (event.type === 'agent-start' && event.messages) active.before = event.messages.length;
            if (event.type === 'agent-end') end = event;
            this.dispatch(event);
            if (event.type === 'message-end' || event.type === 'agent-start')
              this.session?.sync(this.messages);
          },
          error: (error: unknown) => {
            this.settle();
            reject(error instanceof Error ? error : new Error(String(error)));
          },
          complete: () => {
            this.settle();
            if (!end) {
              const signal = stopSignal('user-requested', 'The run was cancelled.', { source: 'abort' });
              return resolve(this.result(active, signal));
            }
            const result: AgentRunResult<TOutput> = {
              reason: end.reason,
              signal: end.signal,
              messages: end.messages,
              usage: end.usage,
              steps: end.steps,
            };
            // Validated against the agent's own output schema by the run.
            if (end.output !== undefined) result.output = end.output as TOutput;
            resolve(result);
          },
        });
    });
  }

  private dispatch(event: AgentEvent): void {
    const state = this.state.value;
    for (const listener of [...this.listeners]) {
      try {
        listener(event, state);
      } catch (error) {
        this.report(error, `A listener threw on "${event.type}" and was skipped`);
      }
    }
    this.events.next(event);
  }

  private settle(): void {
    this.active = undefined;
    // What the end of the run closed (cancelled calls, a partial answer) is kept too.
    this.session?.sync(this.messages);
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private result(active: ActiveRun, signal: StopSignal): AgentRunResult<TOutput> {
    const state = this.state.value;
    const messages = state.messages.slice(active.before);
    let usage = emptyUsage();
    for (const m of messages)
      if ((m.role === 'assistant' || m.role === 'tool') && m.usage) usage = addUsage(usage, m.usage);
    return { reason: signal.reason, signal, messages, usage, steps: state.step };
  }

  private report(error: unknown, context: string): void {
    if (this.config.onError) this.config.onError(error, context);
    else console.error(`[rxagent] ${context}:`, error);
  }
}
