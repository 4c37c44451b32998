import { formatValue, type Row } from './report.js';
import type { AsyncStreamingResult, StreamingResult } from './streaming-bench.js';

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
  /**
   * µs per step of runAgent, withState and Agent on the asynchronous source with an async
   * tool, as a multiple of the smallest RxJS `expand` loop's on the same source.
   */
  asyncStepVsExpandLoop: 2,
  /** Per-step cost of a 10,000-step run over that of 100-step runs. */
  perStepGrowth: 1.3,
  /**
   * Deltas/s of runAgent, withState and Agent on the asynchronous source, as a fraction of the
   * source's alone (`from(async generator)` to a subscriber).
   */
  streamingVsSource: 0.7,
  bytesPerPendingRun: 6 * 1024,
  /** Heap per pending runAgent run, as a multiple of the baseline loop's. */
  pendingRunVsBaselineLoop: 1.3,
  /**
   * Heap per pending run of runAgent, withState and Agent on the asynchronous source, as a
   * multiple of a bare subscriber's of the same source (`from(pending async generator)`).
   */
  pendingRunVsSource: 2,
  /** Subscriptions `turnOperator` makes per turn beyond its work's own. */
  turnOperatorSubscriptions: 2,
  /** "Nothing retained": heap noise allowed per run after unsubscribing. */
  retainedBytesPerRun: 64,
  adapterOverhead: 1.2,
} as const;

const rate = (v: number) => formatValue(v, 'deltas/s');

/** The target text and status of a speed that must be at least `fraction` of the baseline's. */
function atLeast(fraction: number, cost: number, of = 'baseline'): Pick<Row, 'target' | 'met'> {
  return {
    target: `≥ ${fraction}× ${of} rate (ratio ≤ ${(1 / fraction).toFixed(2)}×)`,
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
 * baseline loop's rate) and the state$ fold (≥ 0.7×), then runAgent, withState and Agent
 * against the source alone (≥ 0.7× its rate).
 *
 * @example
 * rows.push(...asyncStreamingRows(await benchAsyncStreaming(100_000)));
 */
export function asyncStreamingRows(r: AsyncStreamingResult): Row[] {
  const section =
    `Streaming, ${r.deltas.toLocaleString('en-US')} deltas, asynchronous source ` +
    `(from(async generator), event-loop turn every ${r.yieldEvery} deltas)`;
  const loop = `baseline loop ${rate(r.baselineLoop)}`;
  const source = `source ${rate(r.source)}`;
  const vsSource = (name: string, value: number, ratio: number): Row => ({
    section,
    name: `${name} vs the source alone`,
    value,
    unit: 'deltas/s',
    baseline: source,
    ratio,
    ...atLeast(TARGETS.streamingVsSource, ratio, "the source's"),
  });
  return [
    { section, name: 'the source alone → subscriber', value: r.source, unit: 'deltas/s' },
    {
      section,
      name: 'baseline: baseline loop → subscriber',
      value: r.baselineLoop,
      unit: 'deltas/s',
      baseline: source,
      ratio: r.vsSource.baselineLoop,
    },
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
    vsSource('runAgent → subscriber', r.runAgent, r.vsSource.runAgent),
    vsSource('withState(run$).state$ fold', r.stateFold, r.vsSource.stateFold),
    vsSource('new Agent({ model }).prompt() → listener', r.agent, r.vsSource.agent),
  ];
}
