import type { ObservableInput, SchedulerLike } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { AgentMessage, Message, Usage } from '../messages/types.js';
import type { SystemBlock, ToolSpec } from '../model/chat-model.js';
import type { ContextUsage } from '../events/context-usage.js';

/**
 * @internal The operator state (`turn.operatorState`) under which `compactContext` keeps its
 * manager's per-run state (`ContextProjection.state`); a snapshot's `operators` hold it by this name.
 *
 * @example
 * const engineState = turn.operatorState(CONTEXT_MANAGER_STATE);
 */
export const CONTEXT_MANAGER_STATE = 'compactContext';

/**
 * What a context manager reports when it rewrote the context (emitted as `compaction`).
 *
 * @example
 * const info: CompactionInfo = { strategy: 'full-summary', tokensBefore: 180_000, tokensAfter: 20_000, summarized: 42 };
 */
export interface CompactionInfo {
  strategy: string;
  tokensBefore: number;
  tokensAfter: number;
  summarized: number;
  /** Usage of the summary call that produced it, if any (counted in the run's totals). */
  usage?: Usage;
}

/**
 * The messages to send for one call, and what was done to get them.
 *
 * @example
 * const projection: ContextProjection = {
 *   messages: kept,
 *   compaction: { strategy: 'drop-oldest', tokensBefore: 90_000, tokensAfter: 40_000, summarized: 0 },
 * };
 */
export interface ContextProjection {
  messages: readonly Message[];
  compaction?: CompactionInfo;
  /** How full the context is now (emitted as `context-usage`, folded into `state.contextUsage`). */
  usage?: ContextUsage;
  /**
   * The manager's per-run state after this projection (plain JSON), stored on the run's turn
   * (`compactContext` keeps it as operator state, so a snapshot carries it) and handed back as
   * `context.state` on the next call. Leave it out to keep the state as it was.
   */
  state?: unknown;
}

/**
 * What `project` / `recoverOverflow` may emit on the way to their projection: the events of
 * the work they do (a summary call streaming `summary-start` / `summary-update`), then the
 * projection itself, last.
 *
 * @example
 * const progress: ContextProgress = { type: 'summary-update', delta: '## Goal' };
 */
export type ContextProgress = ContextProjection | AgentEvent;

/**
 * A committed rewrite of the transcript (`compact`): the caller replaces its transcript.
 *
 * @example
 * const commit: ContextCommit = { messages: [userMessage('Goal'), checkpointMessage], compaction };
 */
export interface ContextCommit {
  messages: readonly AgentMessage[];
  /** Absent when there was nothing to compact (`messages` is then the input). */
  compaction?: CompactionInfo;
  usage?: ContextUsage;
  /** The manager's state after the commit (see `ContextProjection.state`); leave out to keep it. */
  state?: unknown;
}

/**
 * What a context manager knows about the call it prepares. `state` is what it returned last
 * in this run (`ContextProjection.state`): per-run state belongs there, not on the manager,
 * so a run resumed or forked from a snapshot goes on exactly as the original.
 *
 * @example
 * const laterTurnsOnly: ContextManager = {
 *   project: (messages, { step }) => ({ messages: step > 10 ? dropOldTurns(messages, 20) : messages }),
 * };
 * const counting: ContextManager = {
 *   project: (messages, { state }) => ({ messages, state: { calls: ((state as { calls?: number })?.calls ?? 0) + 1 } }),
 * };
 */
export interface ContextManagerContext {
  step: number;
  usage: Usage;
  signal: AbortSignal;
  scheduler: SchedulerLike;
  /** The run's system prompt and tools: sent with every call, so part of the context's size. */
  system?: string | SystemBlock[];
  tools?: readonly ToolSpec[];
  /** What this manager returned as `state` last in this run (plain JSON); undefined at first. */
  state?: unknown;
}

/**
 * Rewrites the context before each model call (`compactContext`). `project` must not modify
 * its input; returning the same array means "nothing to do". `recoverOverflow` is called once
 * when the provider answers with `ContextOverflowError`.
 *
 * @example
 * const keepLast20: ContextManager = {
 *   project: (messages) => ({ messages: messages.length > 20 ? dropOldTurns(messages, 20) : messages }),
 * };
 */
export interface ContextManager {
  /** The view one model call sends; the transcript is not rewritten. */
  project(
    messages: readonly Message[],
    context: ContextManagerContext,
  ): ContextProjection | ObservableInput<ContextProgress>;
  /** A view that fits after the provider said it does not (`ContextOverflowError`). */
  recoverOverflow?(
    messages: readonly Message[],
    error: unknown,
    context: ContextManagerContext,
  ): ContextProjection | ObservableInput<ContextProgress>;
  /**
   * A committed rewrite of the transcript (`Agent.compact()` replaces its transcript with
   * it): the events of its work, then the commit, last.
   */
  compact?(
    messages: readonly AgentMessage[],
    context: ContextManagerContext,
  ): ObservableInput<ContextCommit | AgentEvent>;
  /**
   * Told the transcript after it was replaced from outside (import, reset, compaction), with
   * the state the conversation had (an `Agent` keeps it across runs); returns the state to go
   * on with (undefined: start afresh).
   */
  sync?(messages: readonly AgentMessage[], state?: unknown): unknown;
  /** How full the context was at the last projection (`Agent.contextUsage()`). */
  usage?(): ContextUsage | undefined;
}
