import { formatValue, type Row } from './report.js';
import type { StreamingResult } from './streaming-bench.js';
import type { ToolLoopResult } from './tool-loop-bench.js';

/**
 * The targets the benchmark checks.
 *
 * @example
 * const met = rate >= TARGETS.runAgentDeltasPerSecond;
 */
export const TARGETS = {
  runAgentDeltasPerSecond: 4e6,
  runAgentVsSubject: 5,
  stateFoldDeltasPerSecond: 2e6,
  microsPerStep: 10,
  perStepGrowth: 1.5,
  bytesPerPendingRun: 6 * 1024,
  /** "Nothing retained": heap noise allowed per run after unsubscribing. */
  retainedBytesPerRun: 64,
  adapterOverhead: 1.2,
} as const;

const rate = (v: number) => formatValue(v, 'deltas/s');

/**
 * The table rows of one streaming size: runAgent and state$ against the Subject and
 * async-generator baselines. Ratios are slowdowns (baseline rate ÷ figure).
 *
 * @example
 * rows.push(...streamingRows(await benchStreaming(10_000)));
 */
export function streamingRows(r: StreamingResult): Row[] {
  const section = `Streaming, ${r.deltas.toLocaleString('en-US')} deltas (one model call)`;
  const vsSubject = r.subject / r.runAgent;
  return [
    { section, name: 'baseline: RxJS Subject → subscriber', value: r.subject, unit: 'deltas/s' },
    { section, name: 'baseline: async generator, for await', value: r.asyncGenerator, unit: 'deltas/s' },
    {
      section,
      name: 'runAgent → subscriber',
      value: r.runAgent,
      unit: 'deltas/s',
      baseline: `Subject ${rate(r.subject)}`,
      ratio: vsSubject,
      target: `≥ 4 M/s and ≤ ${TARGETS.runAgentVsSubject}× Subject`,
      met: r.runAgent >= TARGETS.runAgentDeltasPerSecond && vsSubject <= TARGETS.runAgentVsSubject,
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
      baseline: `Subject ${rate(r.subject)}`,
      ratio: r.subject / r.stateFold,
      target: '≥ 2 M/s',
      met: r.stateFold >= TARGETS.stateFoldDeltasPerSecond,
    },
  ];
}

/**
 * The tool-loop rows: µs per step for each run length against the hand-written loop, then
 * the growth of the per-step cost from the shortest to the longest run.
 *
 * @example
 * rows.push(...toolLoopRows([r100, r1000, r10000]));
 */
export function toolLoopRows(results: readonly ToolLoopResult[], growth?: number): Row[] {
  const section = 'Tool loop (one synchronous no-op tool call per step)';
  const rows: Row[] = [];
  for (const r of results) {
    const s = r.steps.toLocaleString('en-US');
    rows.push(
      {
        section,
        name: `runAgent, S = ${s}`,
        value: r.runAgent,
        unit: 'µs/step',
        baseline: `hand loop ${formatValue(r.handLoop, 'µs/step')}`,
        ratio: r.runAgent / r.handLoop,
        target: `≤ ${TARGETS.microsPerStep} µs/step`,
        met: r.runAgent <= TARGETS.microsPerStep,
      },
      {
        section,
        name: `withState(runAgent), S = ${s}`,
        value: r.withState,
        unit: 'µs/step',
        baseline: `runAgent ${formatValue(r.runAgent, 'µs/step')}`,
        ratio: r.withState / r.runAgent,
      },
    );
  }
  const first = results[0];
  const last = results[results.length - 1];
  if (first && last && last !== first) {
    const label = `S = ${last.steps.toLocaleString('en-US')} / S = ${first.steps.toLocaleString('en-US')}`;
    rows.push(
      {
        section,
        name: `runAgent per-step growth, ${label} (rows above)`,
        value: last.runAgent / first.runAgent,
        unit: '×',
        baseline: `hand loop ${(last.handLoop / first.handLoop).toFixed(2)}×`,
        target:
          growth === undefined ? `≤ ${TARGETS.perStepGrowth}× (linear)` : 'informative (measured apart)',
        met: growth === undefined ? last.runAgent / first.runAgent <= TARGETS.perStepGrowth : undefined,
      },
      ...(growth === undefined
        ? []
        : [
            {
              section,
              name: `runAgent per-step growth, ${label} (back to back, same total steps)`,
              value: growth,
              unit: '×',
              target: `≤ ${TARGETS.perStepGrowth}× (linear)`,
              met: growth <= TARGETS.perStepGrowth,
            },
          ]),
      {
        section,
        name: `runAgent per-step cost, last / second tenth of one S = ${last.steps.toLocaleString('en-US')} run`,
        value: last.inRunGrowth,
        unit: '×',
        target: `≤ ${TARGETS.perStepGrowth}× (linear, informative)`,
        met: last.inRunGrowth <= TARGETS.perStepGrowth,
      },
      {
        section,
        name: `withState per-step growth, ${label}`,
        value: last.withState / first.withState,
        unit: '×',
        target: `≤ ${TARGETS.perStepGrowth}× (linear, informative)`,
        met: last.withState / first.withState <= TARGETS.perStepGrowth,
      },
    );
  }
  return rows;
}
