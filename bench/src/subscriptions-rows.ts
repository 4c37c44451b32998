import { formatValue, type Row } from './report.js';
import type { SubscriptionsResult } from './subscriptions-bench.js';
import { TARGETS } from './targets.js';
import type { ToolLoopContender } from './tool-loop-runs.js';

const UNIT = 'calls/step';

const NAMES: Record<Exclude<ToolLoopContender, 'baseline'>, string> = {
  runAgent: 'runAgent (the default run)',
  withState: 'withState(runAgent), events$ → state$',
  agent: 'new Agent({ model, tools }).prompt()',
};

/** What the issue measured on main at 19ffe60, before the rewrite of the loop (sync suite). */
const BEFORE: Partial<Record<ToolLoopContender, string>> = {
  baseline: 'informative (19ffe60: 26)',
  runAgent: 'informative (19ffe60: ≈ 47)',
};

function suiteRows(
  section: string,
  [baselineName, setting]: readonly [string, string],
  counts: Record<ToolLoopContender, number>,
  before: Partial<Record<ToolLoopContender, string>> = {},
): Row[] {
  const rows: Row[] = [
    {
      section,
      name: `${baselineName}, ${setting}`,
      value: counts.baseline,
      unit: UNIT,
      target: before.baseline ?? 'informative',
    },
  ];
  for (const c of ['runAgent', 'withState', 'agent'] as const) {
    rows.push({
      section,
      name: `${NAMES[c]}, ${setting}`,
      value: counts[c],
      unit: UNIT,
      baseline: `${baselineName} ${formatValue(counts.baseline, UNIT)}`,
      ratio: counts[c] / counts.baseline,
      target: before[c] ?? 'informative',
    });
  }
  return rows;
}

/**
 * The subscription rows: `subscribe()` calls per step of every tool-loop contender on the
 * synchronous and the asynchronous suite (informative, with the figures of main before the
 * rewrite), and the subscriptions of one `turnOperator` per turn beyond its work (≤ 2).
 *
 * @example
 * rows.push(...subscriptionsRows(await benchSubscriptions(1000)));
 */
export function subscriptionsRows(r: SubscriptionsResult): Row[] {
  const s = r.steps.toLocaleString('en-US');
  const section = `subscribe() calls per step, one S = ${s} run each (Observable.prototype.subscribe counted)`;
  const op = r.turnOperator;
  return [
    ...suiteRows(section, ['baseline loop', 'synchronous model and tool'], r.sync, BEFORE),
    ...suiteRows(section, ['expand loop', 'async source and tool'], r.async),
    {
      section,
      name: 'turnOperator per turn beyond its work, alone',
      value: op.harness,
      unit: 'calls/turn',
      baseline: `${op.perTurn} in all: source ${op.source}, work ${op.work}`,
      target: `≤ ${TARGETS.turnOperatorSubscriptions}`,
      met: op.harness <= TARGETS.turnOperatorSubscriptions,
    },
    {
      section,
      name: 'turnOperator per turn beyond its work, 10 added to a run',
      value: r.turnOperatorInRun,
      unit: 'calls/turn',
      target: 'informative',
    },
  ];
}
