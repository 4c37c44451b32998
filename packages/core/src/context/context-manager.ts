import type { ObservableInput, SchedulerLike } from 'rxjs';
import type { Message, Usage } from '../messages/types.js';

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
  project(
    messages: readonly Message[],
    context: ContextManagerContext,
  ): ContextProjection | ObservableInput<ContextProjection>;
  recoverOverflow?(
    messages: readonly Message[],
    error: unknown,
    context: ContextManagerContext,
  ): ContextProjection | ObservableInput<ContextProjection>;
}
