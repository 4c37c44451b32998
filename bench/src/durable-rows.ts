import type { DurableResult } from './durable-bench.js';
import { formatValue, type Row } from './report.js';

/** Targets of the durable section (see the README for why these numbers). */
export const DURABLE_TARGETS = {
  /** ms a checkpointed step (model call + tool call) may add over the in-memory loop's, on local PostgreSQL. */
  addedMsPerStep: 25,
  /** … and as a multiple of the same number of committed single-row INSERTs (issue 31). */
  addedVsInserts: 2,
  /** A step of 4 parallel 100 ms calls, as a multiple of a step of one (issue 31). */
  parallelVsOne: 1.5,
  /** Runs per second with 3 workers, as a multiple of the runs per second with 1 … */
  threeWorkersVsOne: 1.5,
  /** … on a machine with this many CPUs at least (with fewer, the workers and PostgreSQL share too few cores). */
  cpusForScaling: 4,
} as const;

const ms = (v: number) => formatValue(v, 'ms');

/**
 * Committed writes of a durable step besides the event log's (batched): the model call's record
 * (one owner-checked statement), the tool call's result row, the step's run-messages statement;
 * an at-most-once call also its began marker.
 */
const WRITES = { idempotent: 3, atMostOnce: 4 } as const;

/**
 * The durable section's rows: per-step time of durable runs (idempotent and at-most-once tool)
 * against `runAgent` in memory, and runs per second by worker count, 3 workers against 1.
 *
 * @example
 * rows.push(...durableRows(await benchDurable({ workerScript })));
 */
export function durableRows({ overhead: o, throughput: t }: DurableResult): Row[] {
  const section = `Durable runs (@rxagent/durable), local PostgreSQL: ${o.steps}-step runs, one model call + one tool call a step (${o.rounds} rounds)`;
  const inMemory = `runAgent in memory ${ms(o.inMemoryMs)}`;
  const perStep = (kind: 'idempotent' | 'atMostOnce', label: string): Row[] => [
    {
      section,
      name: `durable step, ${label}`,
      value: o[`${kind}Ms`],
      unit: 'ms',
      baseline: inMemory,
      ratio: o.ratios[kind],
    },
    {
      section,
      name: `added per step, ${label}`,
      value: o.addedMs[kind],
      unit: 'ms',
      baseline: `SELECT 1 round trip ${ms(o.roundTripMs)}`,
      ratio: o.addedMs[kind] / o.roundTripMs,
      target: `≤ ${DURABLE_TARGETS.addedMsPerStep} ms`,
      met: o.addedMs[kind] <= DURABLE_TARGETS.addedMsPerStep,
    },
  ];
  const rows: Row[] = [
    {
      section,
      name: 'baseline: runAgent step in memory (same model and tool)',
      value: o.inMemoryMs,
      unit: 'ms',
    },
    { section, name: 'baseline: one PostgreSQL round trip (SELECT 1)', value: o.roundTripMs, unit: 'ms' },
    ...perStep('idempotent', `idempotent tool (${WRITES.idempotent} writes)`),
    ...perStep('atMostOnce', `at-most-once tool (${WRITES.atMostOnce} writes)`),
    ...(['idempotent', 'atMostOnce'] as const).map((kind): Row => {
      const inserts = WRITES[kind] * o.insertMs;
      return {
        section,
        name: `added per step vs ${WRITES[kind]} committed INSERTs, ${kind === 'idempotent' ? 'idempotent' : 'at-most-once'} tool`,
        value: o.addedMs[kind],
        unit: 'ms',
        baseline: `${WRITES[kind]} × committed single-row INSERT ${ms(o.insertMs)}`,
        ratio: o.addedMs[kind] / inserts,
        target: `≤ ${DURABLE_TARGETS.addedVsInserts}×`,
        met: o.addedMs[kind] <= DURABLE_TARGETS.addedVsInserts * inserts,
      };
    }),
    {
      section,
      name: 'step of 4 parallel 100 ms tool calls (toolConcurrency 4)',
      value: o.parallel.fourCallsMs,
      unit: 'ms',
      baseline: `step of one 100 ms call ${ms(o.parallel.oneCallMs)}`,
      ratio: o.parallel.fourCallsMs / o.parallel.oneCallMs,
      target: `≤ ${DURABLE_TARGETS.parallelVsOne}× one call`,
      met: o.parallel.fourCallsMs <= DURABLE_TARGETS.parallelVsOne * o.parallel.oneCallMs,
    },
    {
      section,
      name: `startRun → runResult, one ${o.steps}-step run (queue pick-up included)`,
      value: o.runLatencyMs,
      unit: 'ms',
    },
  ];
  const runsSection =
    `Durable runs: ${t.runs} runs of ${t.stepsPerRun} tool steps started at once, until all results are in ` +
    `(workers in child processes, ${t.perWorker} runs at once each)`;
  const one = t.figures.find((f) => f.workers === 1);
  for (const f of t.figures) {
    const row: Row = {
      section: runsSection,
      name: `${f.workers} worker${f.workers === 1 ? '' : 's'} (${f.rounds} rounds; runs per worker ${f.runsByWorker.join(' / ')})`,
      value: f.runsPerSecond,
      unit: 'runs/s',
    };
    if (one && f !== one) {
      const scaling = f.runsPerSecond / one.runsPerSecond;
      row.baseline = `1 worker ${formatValue(one.runsPerSecond, 'runs/s')}`;
      row.ratio = 1 / scaling;
      if (f.workers === 3 && t.cpus >= DURABLE_TARGETS.cpusForScaling) {
        row.target = `≥ ${DURABLE_TARGETS.threeWorkersVsOne}× 1 worker's runs/s`;
        row.met = scaling >= DURABLE_TARGETS.threeWorkersVsOne;
      } else if (f.workers === 3) {
        row.target = `informative on ${t.cpus} CPUs (≥ ${DURABLE_TARGETS.threeWorkersVsOne}× from ${DURABLE_TARGETS.cpusForScaling})`;
      }
    }
    rows.push(row);
  }
  return rows;
}
