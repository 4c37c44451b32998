import type { CompactionEvent } from '@rxagent/core/events';
import { spentUsage } from '@rxagent/core/provider';

const STRATEGIES: Readonly<Record<string, string>> = {
  'tool-result-stubs': 'old tool results stubbed',
  summary: 'summary checkpoint',
  'summary-update': 'checkpoint updated',
  'overflow-summary': 'checkpoint after an overflow',
};

/**
 * The terminal line of a `compaction` event: what was done, the context's tokens before and
 * after, and what its summary call spent (when it made one).
 *
 * @example
 * compactionLine({ type: 'compaction', strategy: 'summary', tokensBefore: 9000, tokensAfter: 3000, summarized: 12 });
 * // '… context compacted (summary checkpoint, 12 messages summarized): 9000 → 3000 tokens'
 */
export function compactionLine(event: CompactionEvent): string {
  const [main = event.strategy, ...extra] = event.strategy.split('+');
  let what = STRATEGIES[main] ?? main;
  if (event.summarized > 0) what += `, ${event.summarized} messages summarized`;
  if (extra.includes('clipped-results')) what += ', large results cut';
  // What the summary call spent, by the rule every total uses (it is in the run's tokens).
  const spent = spentUsage(event);
  const call = spent ? ` · the summary call: ${spent.totalTokens.toLocaleString('en-US')} tokens` : '';
  return `… context compacted (${what}): ${event.tokensBefore} → ${event.tokensAfter} tokens${call}`;
}
