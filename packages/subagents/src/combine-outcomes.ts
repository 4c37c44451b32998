import type { RichToolOutput } from '@rxagent/core/provider';
import type { SubrunOutcome } from './run-subagent.js';

// The results carry no usage: the sub-runs' spending reached the parent's usage as it happened
// (their `subrun` events), so adding it again here would count it twice.

/** One sub-run's outcome as the tool result. */
export function singleResult(outcome: SubrunOutcome): RichToolOutput {
  return { content: [{ type: 'text', text: outcome.text }], isError: outcome.isError };
}

/** Parallel sub-runs as one result, in task order; an error only when every one failed. */
export function parallelResult(outcomes: readonly SubrunOutcome[]): RichToolOutput {
  const sorted = [...outcomes].sort((a, b) => a.index - b.index);
  const n = sorted.length;
  const text = sorted
    .map((o) => `[${o.index + 1}/${n}] ${o.agent} (${o.isError ? 'failed' : 'done'}): ${o.task}\n${o.text}`)
    .join('\n\n');
  return {
    content: [{ type: 'text', text }],
    isError: sorted.every((o) => o.isError),
  };
}

/** A chain's result: the last answer, or where it stopped and why. */
export function chainResult(outcomes: readonly SubrunOutcome[], length: number): RichToolOutput {
  const last = outcomes[outcomes.length - 1];
  if (!last) return { content: [{ type: 'text', text: 'The chain ran no step.' }], isError: true };
  if (!last.isError) return { content: [{ type: 'text', text: last.text }], isError: false };
  const done = outcomes.length - 1;
  const text =
    `The chain stopped at step ${outcomes.length}/${length} (${last.agent}): ${last.text}` +
    (done > 0 ? `\n\nThe last answer before it (step ${done}):\n${outcomes[done - 1]?.text ?? ''}` : '');
  return { content: [{ type: 'text', text }], isError: true };
}
