import type { CompactionInfo } from '@rxagent/core/context';
import type { ContextMeter } from './context-meter.js';
import type { ContextPlan, ViewProposal } from './context-plan.js';
import type { TranscriptLedger } from './transcript-ledger.js';

function stubsCompaction(before: number, tokensAfter: number): CompactionInfo {
  return { strategy: 'tool-result-stubs', tokensBefore: before, tokensAfter, summarized: 0 };
}

/**
 * The views that need no summary: the transcript as it is (from its checkpoint) when it fits;
 * else with the tool results older than the recent part stubbed, when that fits; else, when
 * nothing is old enough to summarize, with every earlier tool result stubbed. Undefined: a
 * summary is needed (of the messages before `plan.cut`). Each costs what the ledger has not
 * measured yet, plus the copy of the view when it differs from the transcript.
 *
 * @example
 * const proposal = cheapProjection(plan, ledger, meter) ?? summarize(plan);
 */
export function cheapProjection(
  plan: ContextPlan,
  ledger: TranscriptLedger,
  meter: ContextMeter,
): ViewProposal | undefined {
  const { messages, mode, before, baseRaw, budget, start, cut } = plan;
  if (mode === 'project' && before <= budget) return ledger.view(messages, plan, start);
  if (mode === 'project') {
    const saved = ledger.stubSavings(messages, start, Math.max(start, cut));
    const after = meter.tokens(baseRaw - saved.tokens);
    if (saved.count > 0 && after <= budget) {
      return { ...ledger.view(messages, plan, cut), compaction: stubsCompaction(before, after) };
    }
  }
  if (cut > start) return undefined;
  // Nothing old enough to summarize: all that is left is stubbing every earlier result.
  if (mode === 'compact') return { view: messages, raw: ledger.tokens(), stubbed: 0 };
  const stubbed = ledger.view(messages, plan, messages.length);
  return {
    ...stubbed,
    ...(stubbed.stubbed > 0 ? { compaction: stubsCompaction(before, meter.tokens(stubbed.raw)) } : {}),
  };
}
