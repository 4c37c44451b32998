import { formatValue, type Row } from './report.js';
import { TARGETS } from './targets.js';
import type { GrowthResult, ToolLoopResult } from './tool-loop-bench.js';
import type { ToolLoopContender } from './tool-loop-runs.js';

/**
 * How the rows of one tool-loop benchmark read: its section, its baseline's name and the
 * per-step target against the baseline.
 *
 * @example
 * rows.push(...toolLoopRows(loops, growth, undefined, ASYNC_TOOL_LOOP_ROWS));
 */
export interface ToolLoopRowsSpec {
  section: string;
  /** The baseline's name in the rows ("baseline loop", "expand loop"). */
  baseline: string;
  /** µs per step at most, as a multiple of the baseline's. */
  stepTarget: number;
}

/**
 * The synchronous tool loop's rows: against the baseline loop, ≤ 1.2× per step.
 *
 * @example
 * toolLoopRows(loops, growth, inRun, SYNC_TOOL_LOOP_ROWS);
 */
export const SYNC_TOOL_LOOP_ROWS: ToolLoopRowsSpec = {
  section: 'Tool loop (one synchronous no-op tool call per step, then a final text)',
  baseline: 'baseline loop',
  stepTarget: TARGETS.stepVsBaselineLoop,
};

/**
 * The asynchronous tool loop's rows: against the smallest RxJS `expand` loop, ≤ 2× per step.
 *
 * @example
 * toolLoopRows(loops, growth, undefined, ASYNC_TOOL_LOOP_ROWS);
 */
export const ASYNC_TOOL_LOOP_ROWS: ToolLoopRowsSpec = {
  section:
    'Tool loop, asynchronous source (model events from(async generator), one async no-op tool call per step)',
  baseline: 'expand loop',
  stepTarget: TARGETS.asyncStepVsExpandLoop,
};

const us = (v: number) => formatValue(v, 'µs/step');

const NAMES: Record<Exclude<ToolLoopContender, 'baseline'>, string> = {
  runAgent: 'runAgent',
  withState: 'withState(runAgent), events$ → state$',
  agent: 'new Agent({ model, tools }).prompt()',
};
const AGENTS = ['runAgent', 'withState', 'agent'] as const;

/** The rows of one run length: the baseline, then each contender against it. */
function perStepRows(
  spec: ToolLoopRowsSpec,
  steps: number,
  baseline: number,
  figures: Record<(typeof AGENTS)[number], { value: number; ratio: number }>,
  note: (c: ToolLoopContender) => string = () => '',
): Row[] {
  const { section } = spec;
  const s = `S = ${steps.toLocaleString('en-US')}`;
  const rows: Row[] = [
    { section, name: `${spec.baseline}, ${s}${note('baseline')}`, value: baseline, unit: 'µs/step' },
  ];
  for (const c of AGENTS) {
    const { value, ratio } = figures[c];
    rows.push({
      section,
      name: `${NAMES[c]}, ${s}${note(c)}`,
      value,
      unit: 'µs/step',
      baseline: `${spec.baseline} ${us(baseline)}`,
      ratio,
      target: `≤ ${spec.stepTarget}× ${spec.baseline}`,
      met: ratio <= spec.stepTarget,
    });
  }
  return rows;
}

/**
 * The tool-loop rows: µs per step of runAgent, withState and Agent against the baseline for
 * each run length (the longest from the growth rounds), the growth of the per-step cost from
 * S = 100 to S = 10,000 measured back to back, and (synchronous loop) runAgent's cost late in
 * one long run against early in it.
 *
 * @example
 * rows.push(...toolLoopRows([r100, r1000], await benchGrowth(10_000, 100), inRun));
 */
export function toolLoopRows(
  results: readonly ToolLoopResult[],
  growth?: GrowthResult,
  inRun?: number,
  spec: ToolLoopRowsSpec = SYNC_TOOL_LOOP_ROWS,
): Row[] {
  const { section } = spec;
  const rows: Row[] = [];
  for (const r of results) {
    rows.push(
      ...perStepRows(spec, r.steps, r.baseline, {
        runAgent: { value: r.runAgent, ratio: r.ratios.runAgent },
        withState: { value: r.withState, ratio: r.ratios.withState },
        agent: { value: r.agent, ratio: r.ratios.agent },
      }),
    );
  }
  if (!growth) return rows;
  const g = growth.contenders;
  // Slow contenders are measured fewer times (within the time budget): say so.
  const rounds = (c: ToolLoopContender) =>
    g[c].rounds < 3 ? ` (${g[c].rounds} round${g[c].rounds > 1 ? 's' : ''})` : '';
  rows.push(
    ...perStepRows(
      spec,
      growth.longSteps,
      g.baseline.longUs,
      {
        runAgent: { value: g.runAgent.longUs, ratio: growth.ratios.runAgent },
        withState: { value: g.withState.longUs, ratio: growth.ratios.withState },
        agent: { value: g.agent.longUs, ratio: growth.ratios.agent },
      },
      rounds,
    ),
  );
  const label = `S = ${growth.longSteps.toLocaleString('en-US')} / S = ${growth.shortSteps.toLocaleString('en-US')}`;
  rows.push({
    section,
    name: `${spec.baseline} per-step growth, ${label} (back to back)`,
    value: g.baseline.growth,
    unit: '×',
  });
  for (const c of AGENTS) {
    rows.push({
      section,
      name: `${NAMES[c]} per-step growth, ${label} (back to back)${rounds(c)}`,
      value: g[c].growth,
      unit: '×',
      baseline: `${spec.baseline} ${g.baseline.growth.toFixed(2)}×`,
      target: `≤ ${TARGETS.perStepGrowth}× (linear)`,
      met: g[c].growth <= TARGETS.perStepGrowth,
    });
  }
  if (inRun !== undefined) {
    rows.push({
      section,
      name: `runAgent per-step cost, last / second tenth of one S = ${growth.longSteps.toLocaleString('en-US')} run`,
      value: inRun,
      unit: '×',
      target: 'informative',
    });
  }
  return rows;
}
