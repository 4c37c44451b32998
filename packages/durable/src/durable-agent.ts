import {
  AgentBusyError,
  AgentConfigError,
  initialAgentState,
  reduceAgentState,
  StateObservable,
  type AgentEvent,
  type AgentMessage,
  type AgentRunResult,
  type AgentState,
  type QueueOutcome,
  type UserInput,
} from '@rxagent/core';
import type { AgentEndEvent } from '@rxagent/core/events';
import { Pool } from 'pg';
import { BehaviorSubject, Subject, type Observable, type Subscription } from 'rxjs';
import { claimRun, readConversation, saveTranscript } from './conversation-store.js';
import { DurableUsageError } from './durable-errors.js';
import { durableRuns, type DurableRuns, type DurableRunsOptions } from './durable-runs.js';
import type { DurableRunSpec } from './run-spec.js';

/**
 * Options of a `DurableAgent`: the run spec of each of its runs (without id, prompt or
 * messages), the database, and the conversation it continues.
 *
 * @example
 * const config: DurableAgentConfig = { databaseUrl, conversationId: 'ticket-1234', model: 'main', tools: ['search'] };
 */
export interface DurableAgentConfig extends Omit<DurableRunSpec, 'runId' | 'prompt' | 'messages'> {
  databaseUrl: string;
  /** The conversation: its transcript persists in PostgreSQL under this id. */
  conversationId: string;
  /** Options of the agent's client (timeouts, polling). */
  client?: Omit<DurableRunsOptions, 'databaseUrl'>;
}

interface ActiveRun {
  runId: string;
  done: Promise<AgentRunResult>;
  /** Stops watching the run (it goes on in the workers). */
  stop(): void;
}

/**
 * The `Agent` API over durable runs: each `prompt()` is a durable run (on any worker) over the
 * conversation's transcript, which persists in PostgreSQL under `conversationId`. A process
 * that dies loses nothing: a worker's death moves the run to another worker, and a new
 * `DurableAgent` on the same conversation (in any process) loads the transcript and, while a
 * run is going on, attaches to it (its events from the start, its approvals to decide).
 * Everything that reaches PostgreSQL returns a Promise (`steer`, `approve`…), unlike `Agent`.
 *
 * @example
 * const agent = new DurableAgent({ databaseUrl, conversationId: 'ticket-1234', model: 'main', tools: ['search'] });
 * agent.events$.subscribe((e) => e.type === 'approval-request' && void agent.approve(e.toolCallId));
 * const result = await agent.prompt('What changed since yesterday?');
 * await agent.dispose();
 */
export class DurableAgent {
  private readonly state: BehaviorSubject<AgentState>;
  private readonly events = new Subject<AgentEvent>();
  private readonly pool: Pool;
  private client?: Promise<DurableRuns>;
  private loading?: Promise<void>;
  private runCount = 0;
  private active?: ActiveRun;
  private steering: UserInput[] = [];
  private followUps: UserInput[] = [];
  private disposed = false;

  /** Every event of every run watched by this agent (hot). */
  readonly events$: Observable<AgentEvent>;
  /** The conversation's state; `.value` reads it synchronously. */
  readonly state$: StateObservable<AgentState>;

  constructor(private readonly config: DurableAgentConfig) {
    if (typeof config?.conversationId !== 'string' || config.conversationId === '') {
      throw new DurableUsageError(
        'DurableAgent needs a conversationId: the id its transcript is kept under.',
      );
    }
    if (typeof config.databaseUrl !== 'string' || config.databaseUrl === '') {
      throw new DurableUsageError('DurableAgent needs databaseUrl: the PostgreSQL URL the workers use.');
    }
    this.pool = new Pool({ connectionString: config.databaseUrl, max: 2 });
    this.pool.on('error', () => undefined);
    this.state = new BehaviorSubject(initialAgentState());
    this.events$ = this.events.asObservable();
    this.state$ = new StateObservable(
      (s) => this.state.subscribe(s),
      () => this.state.value,
    );
  }

  /** The transcript so far. */
  get messages(): readonly AgentMessage[] {
    return this.state.value.messages;
  }

  /** True while a run of the conversation is going on (started here, or found by `loadSession`). */
  get isRunning(): boolean {
    return this.active !== undefined;
  }

  /**
   * Loads the conversation from PostgreSQL (done before the first run anyway): its transcript,
   * and a run still going on, which this agent then watches (`waitForIdle()` for its end).
   */
  loadSession(): Promise<void> {
    this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  /** Runs the conversation on a new input; rejects with `AgentBusyError` while a run goes on. */
  prompt(input: UserInput | AgentMessage | AgentMessage[]): Promise<AgentRunResult> {
    return this.start(input);
  }

  /** Runs again from the transcript, taking queued steering (else follow-ups) as the input after an answer. */
  async continue(): Promise<AgentRunResult> {
    await this.loadSession();
    const last = this.messages[this.messages.length - 1];
    if (!last) throw new AgentConfigError('Cannot continue an empty conversation: call prompt() first.');
    if (last.role !== 'assistant') return this.start(undefined);
    const queued = this.steering.length > 0 ? this.steering.splice(0) : this.followUps.splice(0);
    if (queued.length === 0) {
      throw new AgentConfigError(
        'Cannot continue from an assistant message: queue a message with steer() or followUp(), or call prompt().',
      );
    }
    const now = Date.now();
    return this.start(
      queued.map((m) => (typeof m === 'string' ? { role: 'user', content: m, timestamp: now } : m)),
    );
  }

  /** Steers the run going on (taken at the end of its step), or queues the message for the next run. */
  async steer(message: UserInput): Promise<QueueOutcome> {
    const active = this.active;
    if (active && (await (await this.runs()).steer(active.runId, message))) return 'steered';
    this.steering.push(message);
    return 'queued';
  }

  /** Delivers a message when the run going on would stop, or in the next run. */
  async followUp(message: UserInput): Promise<QueueOutcome> {
    const active = this.active;
    if (!active || !(await (await this.runs()).followUp(active.runId, message))) this.followUps.push(message);
    return 'queued';
  }

  /** Approves a call waiting in the run going on; false when it is not waiting (as `Agent.approve`). */
  async approve(toolCallId: string): Promise<boolean> {
    const active = this.active;
    return active ? (await this.runs()).approve(active.runId, toolCallId) : false;
  }

  /** Rejects a call waiting in the run going on (the model reads `reason`); false when it is not waiting. */
  async reject(toolCallId: string, reason?: string): Promise<boolean> {
    const active = this.active;
    return active ? (await this.runs()).reject(active.runId, toolCallId, reason) : false;
  }

  /** Cancels the run going on: it ends with `user-requested`. */
  async abort(): Promise<void> {
    const active = this.active;
    if (active) await (await this.runs()).cancel(active.runId);
  }

  /** Resolves when no run goes on. */
  async waitForIdle(): Promise<void> {
    await this.loadSession();
    await this.active?.done.catch(() => undefined);
  }

  /** A copy of the transcript. */
  exportMessages(): AgentMessage[] {
    return [...this.messages];
  }

  /** Stops watching and closes the agent's connections; its runs go on in the workers. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.active?.stop();
    this.active = undefined;
    const client = this.client;
    this.client = undefined;
    await (await client?.catch(() => undefined))?.close();
    await this.pool.end().catch(() => undefined);
  }

  private runs(): Promise<DurableRuns> {
    if (this.disposed) return Promise.reject(new DurableUsageError('This DurableAgent was disposed.'));
    this.client ??= durableRuns({ ...this.config.client, databaseUrl: this.config.databaseUrl });
    return this.client;
  }

  private async load(): Promise<void> {
    const row = await readConversation(this.pool, this.config.conversationId);
    this.runCount = row.runs;
    this.state.next(initialAgentState(row.transcript));
    const last = row.lastRunId;
    if (last === undefined || last === row.transcriptRun) return;
    const runs = await this.runs();
    const status = await runs.status(last);
    // The last run never started (claimed by a process that died before enqueueing it): nothing to read.
    if (status === undefined) return;
    this.attach(last);
  }

  private async start(input: UserInput | AgentMessage | AgentMessage[] | undefined): Promise<AgentRunResult> {
    await this.loadSession();
    if (this.active) throw new AgentBusyError();
    const { databaseUrl: _d, conversationId, client: _c, ...spec } = this.config;
    const runs = await this.runs();
    const runId = await claimRun(this.pool, conversationId, this.runCount);
    this.runCount++;
    await runs.startRun({
      ...spec,
      runId,
      messages: this.exportMessages(),
      ...(input !== undefined ? { prompt: input } : {}),
    });
    const active = this.attach(runId);
    for (const message of this.steering.splice(0)) await runs.steer(runId, message);
    for (const message of this.followUps.splice(0)) await runs.followUp(runId, message);
    return active.done;
  }

  /** Watches a run of the conversation: its events folded into the state, its end saved as the transcript. */
  private attach(runId: string): ActiveRun {
    let end: AgentEndEvent | undefined;
    let watching: Subscription | undefined;
    const finish = () => {
      if (this.active?.runId === runId) this.active = undefined;
    };
    const done = new Promise<AgentRunResult>((resolve, reject) => {
      const fail = (error: unknown) => {
        finish();
        reject(error instanceof Error ? error : new Error(String(error)));
      };
      const ended = () => {
        finish();
        if (!end) return reject(new DurableUsageError(`The run ${runId} ended without agent-end.`));
        const output = (end as AgentEndEvent & { output?: unknown }).output;
        resolve({
          reason: end.reason,
          signal: end.signal,
          messages: end.messages,
          usage: this.state.value.usage,
          steps: end.steps,
          ...(output !== undefined ? { output } : {}),
        });
      };
      this.runs().then((runs) => {
        if (this.disposed) return fail(new DurableUsageError('This DurableAgent was disposed.'));
        watching = runs.watchRun(runId).subscribe({
          next: (event) => {
            if (event.type === 'agent-end') end = event;
            this.state.next(reduceAgentState(this.state.value, event));
            this.events.next(event);
          },
          error: fail,
          complete: () => {
            void saveTranscript(this.pool, this.config.conversationId, runId, this.messages)
              .catch(() => undefined)
              .then(ended);
          },
        });
      }, fail);
    });
    done.catch(() => undefined);
    const active: ActiveRun = {
      runId,
      done,
      stop: () => watching?.unsubscribe(),
    };
    this.active = active;
    return active;
  }
}
