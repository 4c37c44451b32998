import type { CompactionInfo } from '../context/context-manager.js';
import type { ContextUsage } from '../events/context-usage.js';
import { AgentBusyError, AgentConfigError } from '../errors/agent-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import { toUserMessage, type UserInput } from '../turn/message-queue.js';
import type { AgentMessage } from '../messages/types.js';
import type { ChatModel, SystemBlock } from '../model/chat-model.js';
import { initialAgentState } from '../state/agent-state.js';
import { reduceAgentState } from '../state/reduce-agent-state.js';
import type { AnyTool } from '../tools/tool.js';
import { type ElicitationReply } from './agent-elicitation.js';
import { compactTranscript } from './agent-compact.js';
import { parseTranscript } from './import-messages.js';
import type { RecordedEvent } from '../replay/recorded-event.js';
import { resumeTranscript } from '../replay/resume-transcript.js';
import { repairMessageSequence } from '../messages/message-sequence.js';
import type { AgentRunResult, QueueOutcome } from './agent-types.js';

export type { AgentConfig, AgentListener, AgentRunResult, QueueOutcome } from './agent-types.js';

import { AgentBase } from './agent-base.js';

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
 */ export class Agent<TOutput = unknown> extends AgentBase<TOutput> {
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
    this.context?.replaced(messages);
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
      this.context?.value,
      this.scheduler(),
      (e) => {
        this.state.next(reduceAgentState(this.state.value, e));
        this.dispatch(e);
      },
    );
    if (!commit.compaction) return undefined;
    const event: AgentEvent = { type: 'compaction', ...commit.compaction };
    this.state.next({ ...reduceAgentState(this.state.value, event), messages: commit.messages });
    this.context?.replaced(commit.messages, 'state' in commit ? commit.state : this.context?.value);
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
    this.context?.replaced([]);
    for (const error of this.resources.tell('reset')) this.report(error, 'reset(): an owned resource failed');
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
}
