import { addUsage, emptyUsage } from '@rxagent/core';
import type { RichToolOutput } from '@rxagent/core/provider';
import type { SubrunOutcome } from './run-subagent.js';

/** One sub-run's outcome as the tool result (its usage added to the parent's). */
export function singleResult(outcome: SubrunOutcome): RichToolOutput {
  return { content: [{ type: 'text', text: outcome.text }], isError: outcome.isError, usage: outcome.usage };
}

function totalUsage(outcomes: readonly SubrunOutcome[]) {
  return outcomes.reduce((sum, o) => addUsage(sum, o.usage), emptyUsage());
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
    usage: totalUsage(sorted),
  };
}

/** A chain's result: the last answer, or where it stopped and why. */
export function chainResult(outcomes: readonly SubrunOutcome[], length: number): RichToolOutput {
  const last = outcomes[outcomes.length - 1];
  const usage = totalUsage(outcomes);
  if (!last) return { content: [{ type: 'text', text: 'The chain ran no step.' }], isError: true, usage };
  if (!last.isError) return { content: [{ type: 'text', text: last.text }], isError: false, usage };
  const done = outcomes.length - 1;
  const text =
    `The chain stopped at step ${outcomes.length}/${length} (${last.agent}): ${last.text}` +
    (done > 0 ? `\n\nThe last answer before it (step ${done}):\n${outcomes[done - 1]?.text ?? ''}` : '');
  return { content: [{ type: 'text', text }], isError: true, usage };
}
