import type { AsyncConcurrencyResult, PendingContender } from './async-concurrency-bench.js';
import { formatValue, type Row } from './report.js';
import { TARGETS } from './targets.js';

const NAMES: Record<PendingContender, string> = {
  source: 'the source alone: a subscriber of from(pending async generator)',
  expandLoop: 'expand loop',
  runAgent: 'runAgent → subscriber',
  withState: 'withState(runAgent), state$ + events$',
  agent: 'new Agent({ model }).prompt(), then abort()',
};

/**
 * The rows of pending runs on the asynchronous source: heap per pending run of runAgent,
 * withState and Agent against the source alone (≤ 2×), the expand loop (informative), and
 * for each what is left after unsubscribing and whether every run reached the model.
 *
 * @example
 * rows.push(...asyncConcurrencyRows(await benchAsyncConcurrency(10_000)));
 */
export function asyncConcurrencyRows(r: AsyncConcurrencyResult): Row[] {
  const section = `Concurrency memory, asynchronous source, ${r.runs.toLocaleString('en-US')} pending runs each`;
  const source = `source ${formatValue(r.bytesPerRun.source, 'bytes')}`;
  const rows: Row[] = [
    { section, name: `heap per pending run, ${NAMES.source}`, value: r.bytesPerRun.source, unit: 'bytes' },
    {
      section,
      name: `heap per pending run, ${NAMES.expandLoop}`,
      value: r.bytesPerRun.expandLoop,
      unit: 'bytes',
      baseline: source,
      ratio: r.vsSource.expandLoop,
      target: 'informative',
    },
  ];
  for (const c of ['runAgent', 'withState', 'agent'] as const) {
    rows.push({
      section,
      name: `heap per pending run, ${NAMES[c]}`,
      value: r.bytesPerRun[c],
      unit: 'bytes',
      baseline: source,
      ratio: r.vsSource[c],
      target: `≤ ${TARGETS.pendingRunVsSource}× the source alone`,
      met: r.vsSource[c] <= TARGETS.pendingRunVsSource,
    });
  }
  const worstRetained = Math.max(...Object.values(r.retainedBytes));
  const streams = Object.values(r.streamsPerRun);
  rows.push(
    {
      section,
      name: 'heap retained after unsubscribing all, worst contender',
      value: worstRetained,
      unit: 'bytes',
      target: `≤ ${TARGETS.retainedBytesPerRun} B/run (noise)`,
      met: worstRetained / r.runs <= TARGETS.retainedBytesPerRun,
    },
    {
      section,
      name: 'model streams opened per run (every contender)',
      value: Math.min(...streams),
      unit: 'count',
      target: '= 1',
      met: streams.every((n) => n === 1),
    },
    {
      section,
      name: 'model streams open after unsubscribe',
      value: r.liveStreamsAfter,
      unit: 'count',
      target: '0',
      met: r.liveStreamsAfter === 0,
    },
  );
  return rows;
}
