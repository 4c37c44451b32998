import type { ObservableInput, SchedulerLike } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { AgentMessage, Message, Usage } from '../messages/types.js';
import type { SystemBlock, ToolSpec } from '../model/chat-model.js';
import type { ContextUsage } from '../events/context-usage.js';

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
}

/**
 * What a context manager knows about the call it prepares.
 *
 * @example
 * const laterTurnsOnly: ContextManager = {
 *   project: (messages, { step }) => ({ messages: step > 10 ? dropOldTurns(messages, 20) : messages }),
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
  /** Told the transcript after it was replaced from outside (import, reset, compaction). */
  sync?(messages: readonly AgentMessage[]): void;
  /** How full the context was at the last projection (`Agent.contextUsage()`). */
  usage?(): ContextUsage | undefined;
}
