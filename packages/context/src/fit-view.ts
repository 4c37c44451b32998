import { ContextCompactionError, type Message } from '@rxagent/core';
import type { CompactionInfo } from '@rxagent/core/context';
import type { ContextEngineSettings } from './context-engine-options.js';
import type { ContextMeter } from './context-meter.js';
import type { ViewProposal } from './context-plan.js';
import { estimateAll, estimateTokens } from './estimate-tokens.js';
import { clipToolResults } from './stub-tool-results.js';

/**
 * What a view is fitted to: the budget, the engine's meter and settings, and the transcript
 * it is a view of (with its tokens, for the compaction event and the error).
 *
 * @example
 * const target: FitTarget = { budget: 6_000, meter, settings, transcript: messages, transcriptTokens: () => 9_000 };
 */
export interface FitTarget {
  budget: number;
  meter: ContextMeter;
  settings: ContextEngineSettings;
  transcript: readonly Message[];
  transcriptTokens: () => number;
}

/** The error of a view that does not fit even after every shrink: what is too big, and what to change. */
function doesNotFit(view: readonly Message[], tokens: number, target: FitTarget): ContextCompactionError {
  const { contextWindow, reserveTokens } = target.settings;
  let largest = 0;
  let largestTokens = 0;
  for (let i = 0; i < view.length; i++) {
    const t = estimateTokens(view[i] as Message);
    if (t > largestTokens) [largest, largestTokens] = [i, t];
  }
  return new ContextCompactionError(
    `The context does not fit: ${tokens} tokens after compaction, over the ${target.budget} available ` +
      `(contextWindow ${contextWindow} - reserveTokens ${reserveTokens}); the system prompt and tools take ${target.meter.fixedTokens}, ` +
      `the largest message (${view[largest]?.role ?? 'none'} #${largest} of the view) ${largestTokens}. The goal and ` +
      'the recent messages are never summarized: shorten that message, the system prompt or the tools, or give ' +
      'contextEngine a larger contextWindow (the model allowing) or smaller reserveTokens / keepRecentTokens. ' +
      'The transcript was kept as it was.',
    target.transcript,
  );
}

/**
 * The last resort for a view still over the budget after everything else: its largest tool
 * results cut to their start (halving the size each keeps until it fits, down to 64 tokens
 * each; the strategy gains `+clipped-results`). A view that still does not fit is never sent:
 * it fails with `ContextCompactionError`.
 *
 * @example
 * const { view, raw } = fitView(proposal, { budget, meter, settings, transcript, transcriptTokens });
 */
export function fitView(proposal: ViewProposal, target: FitTarget): ViewProposal {
  const { budget, meter } = target;
  const { view, compaction } = proposal;
  if (meter.tokens(proposal.raw) <= budget) return proposal;
  let fitted: readonly Message[] = view;
  let raw = proposal.raw;
  for (
    let each = Math.floor(budget / 2);
    each >= 64 && meter.tokens(raw) > budget;
    each = Math.floor(each / 2)
  ) {
    fitted = clipToolResults(view, each).messages;
    raw = estimateAll(fitted);
  }
  if (meter.tokens(raw) > budget) throw doesNotFit(fitted, meter.tokens(raw), target);
  const clipped: CompactionInfo = {
    ...(compaction ?? { summarized: 0 }),
    strategy: compaction ? `${compaction.strategy}+clipped-results` : 'clipped-results',
    tokensBefore: compaction?.tokensBefore ?? target.transcriptTokens(),
    tokensAfter: meter.tokens(raw),
  };
  return { ...proposal, view: fitted, raw, compaction: clipped };
}
