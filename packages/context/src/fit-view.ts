import type { CompactionInfo, Message } from '@rxagent/core';
import type { ContextMeter } from './context-meter.js';
import type { ViewProposal } from './context-plan.js';
import { estimateAll } from './estimate-tokens.js';
import { clipToolResults } from './stub-tool-results.js';

/**
 * The last resort for a view still over `budget` after everything else: its largest tool
 * results cut to their start (halving the size each keeps until it fits, down to 64 tokens
 * each). The strategy gains `+clipped-results`.
 *
 * @example
 * const { view, raw } = fitView(proposal, transcriptTokens, budget, meter);
 */
export function fitView(
  proposal: ViewProposal,
  transcriptTokens: () => number,
  budget: number,
  meter: ContextMeter,
): ViewProposal {
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
  if (fitted === view) return proposal;
  const clipped: CompactionInfo = {
    ...(compaction ?? { summarized: 0 }),
    strategy: compaction ? `${compaction.strategy}+clipped-results` : 'clipped-results',
    tokensBefore: compaction?.tokensBefore ?? transcriptTokens(),
    tokensAfter: meter.tokens(raw),
  };
  return { ...proposal, view: fitted, raw, compaction: clipped };
}
