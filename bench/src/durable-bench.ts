import { DBOSClient } from '@dbos-inc/dbos-sdk';
import { runAgent } from '@rxagent/core';
import type { RunResult } from '@rxagent/core/streams';
import { durableRuns, startWorker, type DurableRuns, type DurableWorker } from '@rxagent/durable';
import { startPostgres } from '@rxagent/testing';
import { availableParallelism } from 'node:os';
import { DURABLE_MODELS, DURABLE_TOOLS, durableBenchAgent, durablePrompt } from './durable-agent.js';
import { spawnBenchWorker, type BenchWorkerProcess } from './durable-worker-process.js';
import { parallelStepMs } from './durable-parallel.js';
import { insertCommitMs, postgresRoundTripMs } from './durable-baselines.js';
import { backToBack, median, medianFigure, medianRatio, type RoundsOptions } from './measure.js';

/** Per-step cost of durable runs against `runAgent` in memory, same model and tool, same process. */
export interface DurableOverheadResult {
  /** Tool steps per run (each one model call and one tool call), then a final text. */
  steps: number;
  /** ms per step (median of the rounds). */
  inMemoryMs: number;
  idempotentMs: number;
  atMostOnceMs: number;
  /** Medians of the rounds' durable / in-memory ratios. */
  ratios: { idempotent: number; atMostOnce: number };
  /** Medians of the rounds' durable − in-memory ms per step. */
  addedMs: { idempotent: number; atMostOnce: number };
  /** ms from `startRun` to `runResult` of one whole idempotent run (queue pick-up included; median). */
  runLatencyMs: number;
  /** ms of one `SELECT 1` round trip to the same PostgreSQL from this process (median), for scale. */
  roundTripMs: number;
  /** ms of one committed single-row INSERT into the same PostgreSQL (median), the baseline of a checkpoint. */
  insertMs: number;
  /** ms of a step whose model asks for one 100 ms tool call, and of one asking for four at once (medians). */
  parallel: { oneCallMs: number; fourCallsMs: number };
  rounds: number;
}

/** Runs per second with a number of workers, each in its own process. */
export interface DurableThroughputFigures {
  workers: number;
  /** Median of the rounds: runs ÷ time from the first `startRun` until every `runResult` is in. */
  runsPerSecond: number;
  /** Median ms of a round. */
  msPerRound: number;
  rounds: number;
  /** How many runs of the last round each worker executed (DBOS executor ids). */
  runsByWorker: number[];
}

/** Runs per second with each worker count. */
export interface DurableThroughputResult {
  /** Runs started at once in each round. */
  runs: number;
  /** Tool steps of each run (then a final text). */
  stepsPerRun: number;
  /** Runs a worker executes at once. */
  perWorker: number;
  /** CPUs of the machine (workers, PostgreSQL and this process share them). */
  cpus: number;
  figures: DurableThroughputFigures[];
}

/** Both durable benchmarks, on one throwaway PostgreSQL. */
export interface DurableResult {
  overhead: DurableOverheadResult;
  throughput: DurableThroughputResult;
}

/** Options of `benchDurable`. */
export interface DurableBenchOptions extends RoundsOptions {
  /** The compiled worker entry (`bench/dist/durable-worker.js`), started in child processes. */
  workerScript: string;
  /** Tool steps per run of the overhead benchmark (default 20). */
  steps?: number;
  /** In-memory runs per round, to time enough steps (default 20). */
  inMemoryRuns?: number;
  /** Runs started at once in a throughput round (default 60). (`runs` is the overhead benchmark's rounds.) */
  runsAtOnce?: number;
  /** Tool steps per run of the throughput benchmark (default 2). */
  stepsPerRun?: number;
  /** Worker counts, in order (default [1, 3]). */
  workerCounts?: readonly number[];
  /** Measured throughput rounds per worker count, after one warm-up round (default 3). */
  throughputRounds?: number;
  /** Runs a worker executes at once (default 8, the worker's own default). */
  perWorker?: number;
}

function checkCompleted(result: RunResult, steps: number, what: string): void {
  if (result.reason !== 'completed' || result.steps.length !== steps + 1) {
    throw new Error(
      `${what}: the durable run ended with ${result.reason} after ${result.steps.length} steps, expected completed after ${steps + 1}.`,
    );
  }
}

/**
 * ms per step (one model call, one tool call) of `runAgent` in memory and of durable runs with
 * an idempotent and with an at-most-once tool, measured back to back in each round. A step is
 * timed from the start of one model call to the start of the next, so the queue's pick-up is
 * not counted in it. The durable worker runs in this process, on the same model objects.
 *
 * @example
 * const r = await benchDurableOverhead(pg.url, client, { steps: 20 });
 * r.addedMs.idempotent; // what a checkpointed step costs over an in-memory one
 */
export async function benchDurableOverhead(
  databaseUrl: string,
  client: DurableRuns,
  options: Omit<DurableBenchOptions, 'workerScript'> = {},
): Promise<DurableOverheadResult> {
  const steps = options.steps ?? 20;
  const inMemoryRuns = options.inMemoryRuns ?? 20;
  let starts: number[] = [];
  const agent = durableBenchAgent(() => starts.push(performance.now()));
  const msPerStep = () => {
    if (starts.length !== steps + 1) throw new Error(`${starts.length} model calls, expected ${steps + 1}.`);
    return ((starts[steps] as number) - (starts[0] as number)) / steps;
  };
  const latencies: number[] = [];
  const durable = (kind: 'idempotent' | 'atMostOnce') => async () => {
    starts = [];
    const started = performance.now();
    const id = await client.startRun({
      model: DURABLE_MODELS[kind],
      tools: [DURABLE_TOOLS[kind]],
      prompt: durablePrompt(steps),
      maxSteps: steps + 1,
    });
    const result = await client.runResult(id);
    if (kind === 'idempotent') latencies.push(performance.now() - started);
    checkCompleted(result, steps, `durable run (${kind})`);
    return msPerStep();
  };
  const inMemory = () => {
    let total = 0;
    const model = agent.models[DURABLE_MODELS.idempotent];
    const tool = agent.plainTools[DURABLE_MODELS.idempotent];
    for (let i = 0; i < inMemoryRuns; i++) {
      starts = [];
      // Synchronous model and tool: the run is over when subscribe returns.
      runAgent({
        model: model!,
        tools: [tool!],
        prompt: durablePrompt(steps),
        maxSteps: steps + 1,
      }).subscribe();
      total += msPerStep();
    }
    return total / inMemoryRuns;
  };
  let worker: DurableWorker | undefined;
  try {
    const roundTripMs = await postgresRoundTripMs(databaseUrl);
    const insertMs = await insertCommitMs(databaseUrl);
    worker = await startWorker({
      databaseUrl,
      workerId: 'bench-overhead',
      ...agent,
      concurrency: { perWorker: 1 },
    });
    const rounds = await backToBack(
      { inMemory, idempotent: durable('idempotent'), atMostOnce: durable('atMostOnce') },
      { warmup: 1, warmupMs: 0, ...options },
    );
    const added = (kind: 'idempotent' | 'atMostOnce') => median(rounds.map((r) => r[kind] - r.inMemory));
    const parallelRounds = Math.max(1, Math.min(rounds.length, 5));
    const step = (n: number) =>
      parallelStepMs(
        client,
        () => starts,
        () => (starts = []),
        n,
        parallelRounds,
      );
    const parallel = { oneCallMs: await step(1), fourCallsMs: await step(4) };
    return {
      steps,
      inMemoryMs: medianFigure(rounds, 'inMemory'),
      idempotentMs: medianFigure(rounds, 'idempotent'),
      atMostOnceMs: medianFigure(rounds, 'atMostOnce'),
      ratios: {
        idempotent: medianRatio(rounds, 'idempotent', 'inMemory'),
        atMostOnce: medianRatio(rounds, 'atMostOnce', 'inMemory'),
      },
      addedMs: { idempotent: added('idempotent'), atMostOnce: added('atMostOnce') },
      runLatencyMs: median(latencies.slice(-rounds.length)),
      roundTripMs,
      insertMs,
      parallel,
      rounds: rounds.length,
    };
  } finally {
    await worker?.stop();
  }
}

/** Starts `runs` runs at once and waits for all their results; returns the ms it took and the run ids. */
async function runBatch(
  client: DurableRuns,
  runs: number,
  steps: number,
): Promise<{ ms: number; ids: string[] }> {
  const started = performance.now();
  const spec = {
    model: DURABLE_MODELS.atMostOnce,
    tools: [DURABLE_TOOLS.atMostOnce],
    prompt: durablePrompt(steps),
    maxSteps: steps + 1,
  };
  const ids = await Promise.all(Array.from({ length: runs }, () => client.startRun(spec)));
  const results = await Promise.all(ids.map((id) => client.runResult(id)));
  const ms = performance.now() - started;
  for (const result of results) checkCompleted(result, steps, 'throughput run');
  return { ms, ids };
}

/**
 * Runs per second of `runs` short runs (`stepsPerRun` at-most-once tool steps each) started at
 * once, with 1 and then 3 workers (each in its own process, `perWorker` runs at once): the
 * time from the first `startRun` until every result is in, after a warm-up round.
 *
 * @example
 * const r = await benchDurableThroughput(pg.url, client, { workerScript, runsAtOnce: 60 });
 */
export async function benchDurableThroughput(
  databaseUrl: string,
  client: DurableRuns,
  options: DurableBenchOptions,
): Promise<DurableThroughputResult> {
  const runs = options.runsAtOnce ?? 60;
  const steps = options.stepsPerRun ?? 2;
  const perWorker = options.perWorker ?? 8;
  const figures: DurableThroughputFigures[] = [];
  const workers: BenchWorkerProcess[] = [];
  // The idle-transaction timeout in the URL, as the durable package gives DBOS (its README,
  // "Decisions"): without it DBOS's pool makes pg print a deprecation notice.
  const systemUrl = new URL(databaseUrl);
  systemUrl.searchParams.set('options', '-c idle_in_transaction_session_timeout=60000');
  const dbos = await DBOSClient.create({
    systemDatabaseUrl: systemUrl.toString(),
    applicationName: 'rxagent',
  });
  try {
    for (const count of options.workerCounts ?? [1, 3]) {
      while (workers.length > count) await workers.pop()?.stop();
      while (workers.length < count) {
        const workerId = `bench-worker-${workers.length + 1}`;
        workers.push(spawnBenchWorker(options.workerScript, { databaseUrl, workerId, perWorker }));
      }
      await Promise.all(workers.map((w) => w.ready));
      await runBatch(client, runs, steps);
      const ms: number[] = [];
      let ids: string[] = [];
      for (let i = 0; i < Math.max(1, options.throughputRounds ?? 3); i++) {
        const batch = await runBatch(client, runs, steps);
        ms.push(batch.ms);
        ids = batch.ids;
      }
      const executors = (await dbos.listWorkflows({ workflowIDs: ids })).map((s) => s.executorId);
      figures.push({
        workers: count,
        runsPerSecond: median(ms.map((m) => runs / (m / 1000))),
        msPerRound: median(ms),
        rounds: ms.length,
        runsByWorker: workers.map((w) => executors.filter((e) => e === w.workerId).length),
      });
    }
    return { runs, stepsPerRun: steps, perWorker, cpus: availableParallelism(), figures };
  } finally {
    await Promise.all(workers.map((w) => w.stop()));
    await dbos.destroy().catch(() => undefined);
  }
}

/**
 * Starts a throwaway PostgreSQL, measures the durable overhead per step and the runs per
 * second with 1 and 3 workers, and stops every worker and the server, also on errors.
 *
 * @example
 * const r = await benchDurable({ workerScript: 'bench/dist/durable-worker.js' });
 */
export async function benchDurable(options: DurableBenchOptions): Promise<DurableResult> {
  const pg = await startPostgres();
  let client: DurableRuns | undefined;
  try {
    client = await durableRuns({ databaseUrl: pg.url });
    const overhead = await benchDurableOverhead(pg.url, client, options);
    const throughput = await benchDurableThroughput(pg.url, client, options);
    return { overhead, throughput };
  } finally {
    await client?.close();
    await pg.stop();
  }
}
