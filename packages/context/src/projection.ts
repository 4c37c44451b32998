import type { CompactionInfo, Message } from '@rxagent/core';
import type { ContextMeter } from './context-meter.js';
import type { ContextPlan, ViewProposal } from './context-plan.js';
import { stubToolResults } from './stub-tool-results.js';
import { recentStart } from './transcript-parts.js';

function stubsCompaction(before: number, tokensAfter: number): CompactionInfo {
  return { strategy: 'tool-result-stubs', tokensBefore: before, tokensAfter, summarized: 0 };
}

/**
 * The views that need no summary: the transcript as it is (from its checkpoint) when it fits;
 * else with the tool results older than the recent part stubbed, when that fits; else, when
 * nothing is old enough to summarize, with every earlier tool result stubbed. Undefined: a
 * summary is needed (the recent part starts at `cut`).
 *
 * @example
 * const proposal = cheapProjection(plan, meter) ?? summarize(plan);
 */
export function cheapProjection(
  plan: ContextPlan,
  meter: ContextMeter,
): (ViewProposal & { unclipped?: true }) | { cut: number } {
  const { messages, mode, base, before, budget, keep, start } = plan;
  if (mode === 'project' && before <= budget) {
    return { view: base, raw: meter.raw(base, base === messages), stubbed: 0 };
  }
  if (mode === 'project') {
    const stubbed = stubToolResults(base, recentStart(base, keep, 0));
    const raw = meter.raw(stubbed.messages);
    if (stubbed.stubbed > 0 && meter.tokens(raw) <= budget) {
      return {
        view: stubbed.messages,
        raw,
        stubbed: stubbed.stubbed,
        compaction: stubsCompaction(before, meter.tokens(raw)),
      };
    }
  }
  const cut = recentStart(messages, keep, start);
  if (cut > start) return { cut };
  // Nothing old enough to summarize: all that is left is stubbing every earlier result.
  if (mode === 'compact')
    return { view: messages, raw: meter.raw(messages, true), stubbed: 0, unclipped: true };
  const stubbed = stubToolResults(base, recentStart(base, 0, 0));
  const raw = meter.raw(stubbed.messages);
  return {
    view: stubbed.messages,
    raw,
    stubbed: stubbed.stubbed,
    ...(stubbed.stubbed > 0 ? { compaction: stubsCompaction(before, meter.tokens(raw)) } : {}),
    unclipped: true,
  };
}

/** The plan's transcript as sent without shrinking: head, checkpoint, the messages after it. */
export function baseView(
  messages: readonly Message[],
  plan: Pick<ContextPlan, 'head' | 'prev'>,
): readonly Message[] {
  const { head, prev } = plan;
  return prev && prev.message !== messages[head]
    ? [...messages.slice(0, head), prev.message, ...messages.slice(prev.end)]
    : messages;
}
