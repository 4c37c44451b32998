import type { ConcurrencyResult } from './concurrency-bench.js';
import { formatValue, type Row } from './report.js';
import { TARGETS } from './targets.js';

/**
 * The concurrency-memory rows: heap per pending run against the baseline loop's and a bare
 * subscription, and the leak checks after unsubscribing.
 *
 * @example
 * rows.push(...concurrencyRows(await benchConcurrency(10_000)));
 */
export function concurrencyRows(r: ConcurrencyResult): Row[] {
  const section = `Concurrency memory, ${r.runs.toLocaleString('en-US')} pending runAgent runs`;
  return [
    {
      section,
      name: 'baseline: baseline loop, heap per pending run',
      value: r.baselineLoopBytesPerRun,
      unit: 'bytes',
      baseline: `bare subscription ${formatValue(r.baselineBytesPerSubscription, 'bytes')}`,
      ratio: r.baselineLoopBytesPerRun / Math.max(1, r.baselineBytesPerSubscription),
    },
    {
      section,
      name: 'heap per pending run vs the baseline loop',
      value: r.bytesPerRun,
      unit: 'bytes',
      baseline: `baseline loop ${formatValue(r.baselineLoopBytesPerRun, 'bytes')}`,
      ratio: r.vsBaselineLoop,
      target: `≤ ${TARGETS.pendingRunVsBaselineLoop}× baseline loop`,
      met: r.vsBaselineLoop <= TARGETS.pendingRunVsBaselineLoop,
    },
    {
      section,
      name: 'heap per pending run',
      value: r.bytesPerRun,
      unit: 'bytes',
      baseline: `bare subscription ${formatValue(r.baselineBytesPerSubscription, 'bytes')}`,
      ratio: r.bytesPerRun / Math.max(1, r.baselineBytesPerSubscription),
      target: '≤ 6 KB',
      met: r.bytesPerRun <= TARGETS.bytesPerPendingRun,
    },
    {
      section,
      name: 'heap retained after unsubscribing all',
      value: r.retainedBytes,
      unit: 'bytes',
      baseline: `baseline loop ${formatValue(r.baselineLoopRetainedBytes, 'bytes')}`,
      target: `≤ ${TARGETS.retainedBytesPerRun} B/run (noise)`,
      met: r.retainedBytes / r.runs <= TARGETS.retainedBytesPerRun,
    },
    {
      section,
      name: 'baseline loop: heap retained after unsubscribing all',
      value: r.baselineLoopRetainedBytes,
      unit: 'bytes',
      target: `≤ ${TARGETS.retainedBytesPerRun} B/run (noise)`,
      met: r.baselineLoopRetainedBytes / r.runs <= TARGETS.retainedBytesPerRun,
    },
    {
      section,
      name: 'model streams open while pending',
      value: r.liveStreamsWhilePending,
      unit: 'count',
      target: `= ${r.runs}`,
      met: r.liveStreamsWhilePending === r.runs,
    },
    {
      section,
      name: 'model streams open after unsubscribe',
      value: r.liveStreamsAfter,
      unit: 'count',
      target: '0',
      met: r.liveStreamsAfter === 0,
    },
    {
      section,
      name: 'timers / handles left after unsubscribe',
      value: r.resourcesAfter,
      unit: 'count',
      target: '0',
      met: r.resourcesAfter === 0,
    },
  ];
}
