import type { CompactionInfo } from '@rxagent/core/context';
import type { Message, UserMessage } from '@rxagent/core';
import type { Checkpoint } from './checkpoint.js';
import type { EngineState } from './engine-state.js';
import type { ViewLayout } from './transcript-ledger.js';

/**
 * What the engine is asked for: the view of one call (`project`), a view after the provider
 * said it does not fit (`recover`), or a committed rewrite of the transcript (`compact`).
 *
 * @example
 * const mode: ContextMode = 'recover';
 */
export type ContextMode = 'project' | 'recover' | 'compact';

/**
 * One piece of the engine's work, decided before anything is shrunk: the transcript, where its
 * head ends, the checkpoint it starts from (the layout of its views: `head`, `insert`,
 * `start`), where its recent part starts and the budgets.
 *
 * @example
 * const folded = plan.messages.slice(plan.start, plan.cut); // what a summary folds in
 */
export interface ContextPlan extends ViewLayout {
  /** The transcript (the model-visible messages, append-only). */
  messages: readonly Message[];
  mode: ContextMode;
  /** The checkpoint the transcript starts from, if any. */
  prev?: Checkpoint;
  /** The estimate of the view without shrinking (head, checkpoint, the rest): its messages alone. */
  baseRaw: number;
  /** Tokens of that view, with the system prompt and tools. */
  before: number;
  /** Where the recent part (`keep` tokens, a call with its results) starts: `start` when nothing is older. */
  cut: number;
  /** Tokens of the recent part kept verbatim. */
  keep: number;
  /** `contextWindow - reserveTokens`. */
  budget: number;
}

/**
 * A view the engine proposes, before the last-resort fit: the messages, their estimate
 * (without the system prompt and tools), and what was done to get there.
 *
 * @example
 * const proposal: ViewProposal = { view: messages, raw: ledger.tokens(), stubbed: 0 };
 */
export interface ViewProposal {
  view: readonly Message[];
  /** The estimated tokens of `view`'s messages alone. */
  raw: number;
  /** Tool results whose bodies `view` replaced by a stub. */
  stubbed: number;
  compaction?: CompactionInfo;
  /** With a new checkpoint: it, and where the verbatim part starts. */
  checkpoint?: Checkpoint;
}

/**
 * What one piece of work ends with: the view to send, what was done, and with a new
 * checkpoint, where the verbatim part starts (for a committed compaction).
 *
 * @example
 * if (item.type === 'outcome') send(item.view);
 */
export interface ContextOutcome {
  type: 'outcome';
  view: readonly Message[];
  compaction?: CompactionInfo;
  cut?: number;
  checkpoint?: UserMessage;
  /** The engine's state after this work (returned as the projection's / commit's `state`). */
  state: EngineState;
}
