import type { EagerResult } from './eager-bench.js';
import type { Row } from './report.js';

/** The target of issue 26 for the eager step: at most 1,350 ms (about 1,900 without eager tools). */
export const EAGER_TARGET_MS = 1_350;

/**
 * The eager-tools rows: the step with eager tools against the same step without (tools in
 * parallel, and one at a time), and the executions per call.
 *
 * @example
 * rows.push(...eagerRows(benchEager()));
 */
export function eagerRows(r: EagerResult): Row[] {
  const s = r.scenario;
  const section =
    `Eager tools: a model step streaming ${s.streamMs.toLocaleString('en-US')} ms, ${s.callsAtMs.length} read-only ` +
    `tools of ${s.toolMs} ms asked at ${s.callsAtMs.join('/')} ms (virtual time)`;
  return [
    {
      section,
      name: `eager tools: the step (calls started at ${r.eagerStarts.join('/')} ms)`,
      value: r.eagerMs,
      unit: 'ms',
      baseline: `without eager ${r.sequentialMs} ms (one at a time)`,
      ratio: r.eagerMs / r.sequentialMs,
      target: `≤ ${EAGER_TARGET_MS.toLocaleString('en-US')} ms`,
      met: r.eagerMs <= EAGER_TARGET_MS,
    },
    {
      section,
      name: 'without eager, tools in parallel (toolConcurrency 8)',
      value: r.parallelMs,
      unit: 'ms',
      baseline: `eager ${r.eagerMs} ms`,
      ratio: r.parallelMs / r.eagerMs,
    },
    {
      section,
      name: 'eager tools: executions per call (adopted, never run twice)',
      value: r.eagerExecutions / s.callsAtMs.length,
      unit: 'count',
      target: '1',
      met: r.eagerExecutions === s.callsAtMs.length,
    },
  ];
}
