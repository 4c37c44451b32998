import { formatValue, type Row } from './report.js';
import type { AsyncStreamingResult, StreamingResult } from './streaming-bench.js';
import type { GrowthResult, ToolLoopContender, ToolLoopResult } from './tool-loop-bench.js';

/**
 * The targets the benchmark checks. Speeds against the baseline loop are minimum fractions of
 * its rate; costs (µs per step, bytes) maximum multiples of its cost.
 *
 * @example
 * const met = runAgentRate / baselineRate >= TARGETS.streamingVsBaselineLoop;
 */
export const TARGETS = {
  /** runAgent's deltas/s on the asynchronous source, as a fraction of the baseline loop's. */
  streamingVsBaselineLoop: 0.8,
  /** withState's state$ fold on the asynchronous source, as a fraction of the baseline loop's rate. */
  stateFoldVsBaselineLoop: 0.7,
  runAgentDeltasPerSecond: 4e6,
  runAgentVsSubject: 5,
  stateFoldDeltasPerSecond: 2e6,
  /** µs per tool-loop step of runAgent, withState and Agent, as a multiple of the baseline loop's. */
  stepVsBaselineLoop: 1.2,
  /** Per-step cost of a 10,000-step run over that of 100-step runs. */
  perStepGrowth: 1.3,
  bytesPerPendingRun: 6 * 1024,
  /** Heap per pending runAgent run, as a multiple of the baseline loop's. */
  pendingRunVsBaselineLoop: 1.3,
  /** "Nothing retained": heap noise allowed per run after unsubscribing. */
  retainedBytesPerRun: 64,
  adapterOverhead: 1.2,
} as const;

const rate = (v: number) => formatValue(v, 'deltas/s');
const us = (v: number) => formatValue(v, 'µs/step');

/** The target text and status of a speed that must be at least `fraction` of the baseline's. */
function atLeast(fraction: number, cost: number): Pick<Row, 'target' | 'met'> {
  return {
    target: `≥ ${fraction}× baseline rate (ratio ≤ ${(1 / fraction).toFixed(2)}×)`,
    met: 1 / cost >= fraction,
  };
}

/**
 * The table rows of one streaming size with the synchronous source: runAgent and state$
 * against the baseline loop (informative), the Subject and the async generator. Ratios are
 * slowdowns (baseline rate ÷ figure, the median of the rounds' for the baseline loop and the
 * Subject).
 *
 * @example
 * rows.push(...streamingRows(await benchStreaming(10_000)));
 */
export function streamingRows(r: StreamingResult): Row[] {
  const section = `Streaming, ${r.deltas.toLocaleString('en-US')} deltas, synchronous source (prebuilt array)`;
  const loop = `baseline loop ${rate(r.baselineLoop)}`;
  return [
    { section, name: 'baseline: RxJS Subject → subscriber', value: r.subject, unit: 'deltas/s' },
    { section, name: 'baseline: async generator, for await', value: r.asyncGenerator, unit: 'deltas/s' },
    { section, name: 'baseline: baseline loop → subscriber', value: r.baselineLoop, unit: 'deltas/s' },
    {
      section,
      name: 'runAgent → subscriber',
      value: r.runAgent,
      unit: 'deltas/s',
      baseline: loop,
      ratio: r.runAgentVsBaseline,
      target: 'informative',
    },
    {
      section,
      name: 'runAgent vs Subject',
      value: r.runAgent,
      unit: 'deltas/s',
      baseline: `Subject ${rate(r.subject)}`,
      ratio: r.runAgentVsSubject,
      target: `≥ 4 M/s and ≤ ${TARGETS.runAgentVsSubject}× Subject`,
      met: r.runAgent >= TARGETS.runAgentDeltasPerSecond && r.runAgentVsSubject <= TARGETS.runAgentVsSubject,
    },
    {
      section,
      name: 'runAgent vs async generator',
      value: r.runAgent,
      unit: 'deltas/s',
      baseline: `async gen ${rate(r.asyncGenerator)}`,
      ratio: r.asyncGenerator / r.runAgent,
    },
    {
      section,
      name: 'withState(run$).state$ fold',
      value: r.stateFold,
      unit: 'deltas/s',
      baseline: loop,
      ratio: r.stateFoldVsBaseline,
      target: '≥ 2 M/s',
      met: r.stateFold >= TARGETS.stateFoldDeltasPerSecond,
    },
  ];
}

/**
 * The table rows of one streaming size with the asynchronous source: runAgent (≥ 0.8× the
 * baseline loop's rate) and the state$ fold (≥ 0.7×), with the source alone for scale.
 *
 * @example
 * rows.push(...asyncStreamingRows(await benchAsyncStreaming(100_000)));
 */
export function asyncStreamingRows(r: AsyncStreamingResult): Row[] {
  const section =
    `Streaming, ${r.deltas.toLocaleString('en-US')} deltas, asynchronous source ` +
    `(from(async generator), event-loop turn every ${r.yieldEvery} deltas)`;
  const loop = `baseline loop ${rate(r.baselineLoop)}`;
  return [
    { section, name: 'the source alone → subscriber', value: r.source, unit: 'deltas/s' },
    { section, name: 'baseline: baseline loop → subscriber', value: r.baselineLoop, unit: 'deltas/s' },
    {
      section,
      name: 'runAgent → subscriber',
      value: r.runAgent,
      unit: 'deltas/s',
      baseline: loop,
      ratio: r.runAgentVsBaseline,
      ...atLeast(TARGETS.streamingVsBaselineLoop, r.runAgentVsBaseline),
    },
    {
      section,
      name: 'withState(run$).state$ fold',
      value: r.stateFold,
      unit: 'deltas/s',
      baseline: loop,
      ratio: r.stateFoldVsBaseline,
      ...atLeast(TARGETS.stateFoldVsBaselineLoop, r.stateFoldVsBaseline),
    },
  ];
}

const NAMES: Record<Exclude<ToolLoopContender, 'baseline'>, string> = {
  runAgent: 'runAgent',
  withState: 'withState(runAgent), events$ → state$',
  agent: 'new Agent({ model, tools }).prompt()',
};
const AGENTS = ['runAgent', 'withState', 'agent'] as const;

/** The rows of one run length: the baseline loop, then each contender against it. */
function perStepRows(
  section: string,
  steps: number,
  baseline: number,
  figures: Record<(typeof AGENTS)[number], { value: number; ratio: number }>,
  note: (c: ToolLoopContender) => string = () => '',
): Row[] {
  const s = `S = ${steps.toLocaleString('en-US')}`;
  const rows: Row[] = [
    { section, name: `baseline loop, ${s}${note('baseline')}`, value: baseline, unit: 'µs/step' },
  ];
  for (const c of AGENTS) {
    const { value, ratio } = figures[c];
    rows.push({
      section,
      name: `${NAMES[c]}, ${s}${note(c)}`,
      value,
      unit: 'µs/step',
      baseline: `baseline loop ${us(baseline)}`,
      ratio,
      target: `≤ ${TARGETS.stepVsBaselineLoop}× baseline loop`,
      met: ratio <= TARGETS.stepVsBaselineLoop,
    });
  }
  return rows;
}

/**
 * The tool-loop rows: µs per step of runAgent, withState and Agent against the baseline loop
 * for each run length (the longest from the growth rounds), the growth of the per-step cost
 * from S = 100 to S = 10,000 measured back to back, and runAgent's cost late in one long run
 * against early in it.
 *
 * @example
 * rows.push(...toolLoopRows([r100, r1000], await benchGrowth(10_000, 100), inRun));
 */
export function toolLoopRows(
  results: readonly ToolLoopResult[],
  growth?: GrowthResult,
  inRun?: number,
): Row[] {
  const section = 'Tool loop (one synchronous no-op tool call per step, then a final text)';
  const rows: Row[] = [];
  for (const r of results) {
    rows.push(
      ...perStepRows(section, r.steps, r.baseline, {
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
      section,
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
    name: `baseline loop per-step growth, ${label} (back to back)`,
    value: g.baseline.growth,
    unit: '×',
  });
  for (const c of AGENTS) {
    rows.push({
      section,
      name: `${NAMES[c]} per-step growth, ${label} (back to back)${rounds(c)}`,
      value: g[c].growth,
      unit: '×',
      baseline: `baseline loop ${g.baseline.growth.toFixed(2)}×`,
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
