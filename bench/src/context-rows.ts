import type { LongRunResult, ProjectionResult } from './context-bench.js';
import { formatValue, type Row } from './report.js';

/** Projection (no summary) of a 1,000-message transcript, and its growth per message. */
export const CONTEXT_TARGETS = { projectionMs: 0.5, perMessageGrowth: 1.5 } as const;

/** An example price to put the summaries' tokens in dollars: gpt-4o-mini's list price per million tokens. */
const EXAMPLE_PRICE = { input: 0.15, output: 0.6 } as const;

/**
 * The context-engine rows: projection cost by transcript size (target at 1,000 messages, and
 * linear: the per-message cost of the largest within 1.5× of a 1,000-message transcript's,
 * measured back to back), and the 300-turn run's tokens saved and summary cost.
 *
 * @example
 * rows.push(...contextRows(projections, await benchLongRun(300)));
 */
export function contextRows(projections: readonly ProjectionResult[], run: LongRunResult): Row[] {
  const section = 'Context engine (@rxagent/context)';
  const rows: Row[] = [];
  for (const p of projections) {
    const n = p.size.toLocaleString('en-US');
    rows.push({
      section,
      name: `projection, ${n} messages (${p.strategy}), steady state`,
      value: p.msPerProjection * 1000,
      unit: 'µs',
      ...(p.size === 1_000
        ? {
            target: `≤ ${CONTEXT_TARGETS.projectionMs} ms`,
            met: p.msPerProjection <= CONTEXT_TARGETS.projectionMs,
          }
        : {}),
    });
    rows.push({
      section,
      name: `projection, ${n} messages, first time (every message estimated)`,
      value: p.coldMsPerProjection * 1000,
      unit: 'µs',
      ...(p.size === 1_000
        ? {
            target: `≤ ${CONTEXT_TARGETS.projectionMs} ms`,
            met: p.coldMsPerProjection <= CONTEXT_TARGETS.projectionMs,
          }
        : {}),
    });
    rows.push({
      section,
      name: `projection, ${n} messages and growing, one step appended per call`,
      value: p.growingMsPerProjection * 1000,
      unit: 'µs',
    });
  }
  const last = projections[projections.length - 1] as ProjectionResult;
  // Measured back to back with a 1,000-message transcript in each round (see benchProjection).
  const growth = last.perMessageGrowth;
  rows.push({
    section,
    name: `projection cost per message, ${last.size.toLocaleString('en-US')} vs ${last.referenceSize.toLocaleString('en-US')} messages`,
    value: growth,
    unit: '×',
    target: `≤ ${CONTEXT_TARGETS.perMessageGrowth}× (linear)`,
    met: growth <= CONTEXT_TARGETS.perMessageGrowth,
  });
  const saved = run.transcriptTokens - run.sentTokens;
  const dollars =
    (run.summaryInputTokens * EXAMPLE_PRICE.input + run.summaryOutputTokens * EXAMPLE_PRICE.output) / 1e6;
  const runSection = `${section}: scripted ${run.steps}-turn run, ${run.contextWindow.toLocaleString('en-US')}-token window`;
  rows.push(
    {
      section: runSection,
      name: `input tokens sent over ${run.calls} calls`,
      value: run.sentTokens,
      unit: 'count',
      baseline: `without the engine ${run.transcriptTokens.toLocaleString('en-US')}`,
      ratio: run.sentTokens / run.transcriptTokens,
    },
    { section: runSection, name: 'input tokens saved', value: saved, unit: 'count' },
    {
      section: runSection,
      name: 'fullest call, share of the window',
      value: run.maxPercent,
      unit: '%',
      target: '≤ 75 % (window − reserve)',
      met: run.maxPercent <= 75,
    },
    { section: runSection, name: 'summary calls', value: run.summaries, unit: 'count' },
    {
      section: runSection,
      name: 'summary calls: tokens in + out',
      value: run.summaryInputTokens + run.summaryOutputTokens,
      unit: 'count',
      baseline: `${run.summaryInputTokens.toLocaleString('en-US')} in / ${run.summaryOutputTokens.toLocaleString('en-US')} out`,
      ratio: (run.summaryInputTokens + run.summaryOutputTokens) / Math.max(1, saved),
    },
    {
      section: runSection,
      name: `summary cost at $${EXAMPLE_PRICE.input}/$${EXAMPLE_PRICE.output} per M tokens (example price)`,
      value: dollars,
      unit: 'USD',
      baseline: `tokens saved at the input price ${formatValue((saved * EXAMPLE_PRICE.input) / 1e6, 'USD')}`,
    },
  );
  return rows;
}
