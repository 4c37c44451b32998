import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { benchAnthropicAdapter, benchOpenAIAdapter } from './adapter-bench.js';
import { benchConcurrency } from './concurrency-bench.js';
import { formatMachineInfo, machineInfo } from './machine-info.js';
import { formatTable, missedTargets, type Row } from './report.js';
import { benchAsyncStreaming, benchStreaming } from './streaming-bench.js';
import { adapterRows } from './adapter-rows.js';
import { concurrencyRows } from './concurrency-rows.js';
import { benchLongRun, benchProjection } from './context-bench.js';
import { contextRows } from './context-rows.js';
import { benchDeferredTools, deferredToolsRows } from './deferred-tools-bench.js';
import { benchDurable, type DurableResult } from './durable-bench.js';
import { durableRows } from './durable-rows.js';
import { benchEager } from './eager-bench.js';
import { eagerRows } from './eager-rows.js';
import { benchLimits } from './limits-bench.js';
import { limitsRows } from './limits-rows.js';
import { asyncStreamingRows, streamingRows } from './targets.js';
import { benchGrowth, benchToolLoop, inRunGrowth, type ToolLoopResult } from './tool-loop-bench.js';
import { ASYNC_TOOL_LOOP_ROWS, toolLoopRows } from './tool-loop-rows.js';
import { ASYNC_TOOL_LOOP } from './async-tool-loop-runs.js';
import { benchAsyncConcurrency } from './async-concurrency-bench.js';
import { asyncConcurrencyRows } from './async-concurrency-rows.js';
import { benchSubscriptions } from './subscriptions-bench.js';
import { subscriptionsRows } from './subscriptions-rows.js';
import { benchCodec, benchLongLine, benchWireBytes } from './wire-bench.js';
import { codecRows, dashboardPostRows, longLineRows, wireBytesRows } from './wire-rows.js';
import { benchDashboardPost } from './dashboard-bench.js';
import { benchForkStart } from './fork-start-bench.js';
import { benchReplay, recordToolLoop } from './replay-bench.js';
import { forkStartRows, replayRows } from './replay-rows.js';

const log = (line: string) => process.stdout.write(`${line}\n`);

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work();
  log(`… ${label} (${((performance.now() - start) / 1000).toFixed(1)} s)`);
  return result;
}

/** The benchmarks, by the name that runs one alone (`node --expose-gc bench/dist/main.js tool-loop`). */
const BENCHMARKS = {
  streaming: async (rows: Row[], raw: Record<string, unknown>) => {
    for (const deltas of [10_000, 100_000]) {
      const n = deltas.toLocaleString('en-US');
      const result = await timed(`streaming ${n} deltas, synchronous source`, () =>
        benchStreaming(deltas, { budgetMs: 8_000 }),
      );
      raw[`streaming-${deltas}`] = result;
      rows.push(...streamingRows(result));
    }
  },
  'async-streaming': async (rows: Row[], raw: Record<string, unknown>) => {
    for (const deltas of [10_000, 100_000]) {
      const n = deltas.toLocaleString('en-US');
      // A 10,000-delta round takes about 0.1 s: more rounds, within the same budget.
      const runs = deltas <= 10_000 ? 15 : 7;
      const result = await timed(`streaming ${n} deltas, asynchronous source`, () =>
        benchAsyncStreaming(deltas, { budgetMs: 8_000, runs }),
      );
      raw[`async-streaming-${deltas}`] = result;
      rows.push(...asyncStreamingRows(result));
    }
  },
  'tool-loop': async (rows: Row[], raw: Record<string, unknown>) => {
    const loops: ToolLoopResult[] = [];
    // Each figure is 5,000 steps (50 runs of 100, 5 of 1,000): one round warms the JIT up.
    // Slow contenders cut the rounds short (the budget).
    const options = { stepsPerFigure: 5_000, warmup: 1, warmupMs: 0, budgetMs: 10_000 };
    for (const steps of [100, 1_000]) {
      const n = steps.toLocaleString('en-US');
      loops.push(await timed(`tool loop, ${n} steps`, () => benchToolLoop(steps, options)));
    }
    const growth = await timed('tool loop, 10,000 steps and growth vs 100 × 100 steps, back to back', () =>
      benchGrowth(10_000, 100, { budgetMs: 8_000 }),
    );
    const inRun = await timed('runAgent in one 10,000-step run', () =>
      inRunGrowth(10_000, { runs: 5, warmup: 0, warmupMs: 0 }),
    );
    raw['tool-loop'] = { loops, growth, inRun };
    rows.push(...toolLoopRows(loops, growth, inRun));
  },
  'async-tool-loop': async (rows: Row[], raw: Record<string, unknown>) => {
    const loops: ToolLoopResult[] = [];
    const suite = ASYNC_TOOL_LOOP;
    const options = { stepsPerFigure: 5_000, warmup: 1, warmupMs: 0, budgetMs: 10_000, suite };
    for (const steps of [100, 1_000]) {
      const n = steps.toLocaleString('en-US');
      loops.push(await timed(`async tool loop, ${n} steps`, () => benchToolLoop(steps, options)));
    }
    const growth = await timed(
      'async tool loop, 10,000 steps and growth vs 100 × 100 steps, back to back',
      () => benchGrowth(10_000, 100, { budgetMs: 10_000, suite }),
    );
    raw['async-tool-loop'] = { loops, growth };
    rows.push(...toolLoopRows(loops, growth, undefined, ASYNC_TOOL_LOOP_ROWS));
  },
  concurrency: async (rows: Row[], raw: Record<string, unknown>) => {
    const result = await timed('concurrency memory, 10,000 pending runs', () =>
      benchConcurrency(10_000, { rounds: 3 }),
    );
    raw.concurrency = result;
    rows.push(...concurrencyRows(result));
  },
  'async-concurrency': async (rows: Row[], raw: Record<string, unknown>) => {
    const result = await timed('concurrency memory, asynchronous source, 10,000 pending runs', () =>
      benchAsyncConcurrency(10_000, { rounds: 3 }),
    );
    raw['async-concurrency'] = result;
    rows.push(...asyncConcurrencyRows(result));
  },
  adapters: async (rows: Row[], raw: Record<string, unknown>) => {
    const openaiResult = await timed('OpenAI chat adapter, 5,000 deltas', () => benchOpenAIAdapter(5_000));
    const anthropicResult = await timed('Anthropic adapter, 5,000 deltas', () =>
      benchAnthropicAdapter(5_000),
    );
    raw.adapters = [openaiResult, anthropicResult];
    rows.push(...adapterRows(openaiResult), ...adapterRows(anthropicResult));
  },
  context: async (rows: Row[], raw: Record<string, unknown>) => {
    const projections = [];
    for (const size of [1_000, 2_000, 4_000]) {
      projections.push(
        await timed(`context projection, ${size.toLocaleString('en-US')} messages`, () =>
          benchProjection(size),
        ),
      );
    }
    const run = await timed('context engine, scripted 300-turn run', () => benchLongRun(300));
    raw.context = { projections, run };
    rows.push(...contextRows(projections, run));
  },
  'deferred-tools': async (rows: Row[], raw: Record<string, unknown>) => {
    const result = await timed('request size, 100 tools deferred vs not', () => benchDeferredTools(100));
    raw['deferred-tools'] = result;
    rows.push(...deferredToolsRows(result));
  },
  limits: async (rows: Row[], raw: Record<string, unknown>) => {
    const result = await timed(
      '50 concurrent runs (20 with 3 sub-agents) against a rate-limited provider, with a shared limiter and with retries only',
      () => benchLimits({ runs: 50 }),
    );
    raw.limits = result;
    rows.push(...limitsRows(result));
  },
  eager: async (rows: Row[], raw: Record<string, unknown>) => {
    const result = await timed(
      'eager tools: a 1,000 ms model step with three 300 ms tools, virtual time',
      () => Promise.resolve(benchEager()),
    );
    raw.eager = result;
    rows.push(...eagerRows(result));
  },
  wire: async (rows: Row[], raw: Record<string, unknown>) => {
    const bytes = [];
    for (const chars of [4_000, 20_000, 80_000]) {
      bytes.push(
        ...(await timed(`wire bytes, ${chars.toLocaleString('en-US')}-char answer`, () =>
          benchWireBytes(chars),
        )),
      );
    }
    const codec = await timed('wire codec encode / decode beside JSON', () =>
      benchCodec(20_000, { budgetMs: 6_000 }),
    );
    const longLine = await timed('fromSSE, one 16 MB line', () => benchLongLine(16 * 1024 * 1024));
    // Rows in the order: each wire for each answer length.
    for (const wire of ['snapshots (before)', 'SSE', 'durable log', '--json'])
      rows.push(...wireBytesRows(bytes.filter((b) => b.wire === wire)));
    rows.push(...codecRows(codec), ...longLineRows(longLine));
    const post = await timed('dashboard POST latency, 0 and 31 slow clients', () =>
      benchDashboardPost({ slowClients: 31, posts: 20, runs: 7, warmup: 1, warmupMs: 0 }),
    );
    raw.wire = { bytes, codec, longLine, post };
    rows.push(...dashboardPostRows(post));
  },
  replay: async (rows: Row[], raw: Record<string, unknown>) => {
    const logs: { steps: number; lines: readonly string[] }[] = [];
    for (const steps of [1_000, 2_000, 4_000]) {
      const lines = await timed(`recording a ${steps.toLocaleString('en-US')}-step run`, () =>
        Promise.resolve().then(() => recordToolLoop(steps)),
      );
      logs.push({ steps, lines });
    }
    const results = [];
    for (const { steps, lines } of logs.slice(0, 2)) {
      const n = steps.toLocaleString('en-US');
      results.push(await timed(`replay of a recorded ${n}-step run`, () => benchReplay(steps, lines)));
    }
    const forks = await timed('fork start at the middle of 1,000, 2,000, 4,000-step logs', () =>
      benchForkStart(logs),
    );
    raw.replay = { results, forks };
    rows.push(...replayRows(results), ...forkStartRows(forks));
  },
  durable: async (rows: Row[], raw: Record<string, unknown>) => {
    // The worker entry is compiled next to this file. PostgreSQL and the workers are stopped
    // before this returns, also when it throws.
    const workerScript = join(dirname(process.argv[1] ?? '.'), 'durable-worker.js');
    let result: DurableResult;
    try {
      result = await timed(
        'durable runs on local PostgreSQL: overhead per step, runs/s with 1 and 3 workers',
        () => benchDurable({ workerScript }),
      );
    } catch (error) {
      // A machine without PostgreSQL still gets the other sections (startPostgres says how to install it).
      if (!/PostgreSQL is not installed/.test(String((error as Error | undefined)?.message))) throw error;
      log(`… durable runs SKIPPED: ${(error as Error).message}`);
      return;
    }
    raw.durable = result;
    rows.push(...durableRows(result));
  },
  // Last: it patches Observable.prototype.subscribe while it counts (restored after), which
  // would otherwise change the hidden class the timed sections' code was optimized for.
  subscriptions: async (rows: Row[], raw: Record<string, unknown>) => {
    const result = await timed('subscribe() calls per step, S = 1,000', () => benchSubscriptions(1_000));
    raw.subscriptions = result;
    rows.push(...subscriptionsRows(result));
  },
} satisfies Record<string, (rows: Row[], raw: Record<string, unknown>) => Promise<void>>;

type BenchmarkName = keyof typeof BENCHMARKS;

function selected(args: readonly string[]): BenchmarkName[] {
  const names = Object.keys(BENCHMARKS) as BenchmarkName[];
  if (args.length === 0) return names;
  const unknown = args.filter((a) => !(names as string[]).includes(a));
  if (unknown.length > 0) {
    throw new Error(`Unknown benchmark ${unknown.join(', ')}: use any of ${names.join(', ')} (none: all).`);
  }
  return names.filter((n) => args.includes(n));
}

async function main(): Promise<void> {
  const started = performance.now();
  const only = selected(process.argv.slice(2));
  const machine = machineInfo();
  log(`rxagent benchmark — ${formatMachineInfo(machine)}`);
  log(
    "Each figure is the median of 7 rounds after a warm-up (fewer when a time budget cuts them short), in steady state (no forced GC between runs), the contenders measured back to back in each round; ratios are costs relative to the baseline (> 1: slower or bigger), medians of the rounds' ratios.\n",
  );
  const rows: Row[] = [];
  const raw: Record<string, unknown> = {};
  for (const name of only) await BENCHMARKS[name](rows, raw);

  const durationMs = performance.now() - started;
  const load = machineInfo().loadAverage[0] ?? 0;
  if (load > machine.cpus) {
    log(
      `\nNote: the load average rose to ${load.toFixed(1)} on ${machine.cpus} CPUs: other processes competed, figures are pessimistic.`,
    );
  }
  log('');
  log(formatTable(rows));
  log('');
  const missed = missedTargets(rows);
  const withTarget = rows.filter((r) => r.met !== undefined).length;
  log(missed.length === 0 ? `All ${withTarget} targets MET.` : missed.join('\n'));
  log(`\nTotal ${(durationMs / 1000).toFixed(1)} s.`);

  const outDir = resolve(dirname(process.argv[1] ?? '.'), '..', 'results');
  mkdirSync(outDir, { recursive: true });
  const file = join(
    outDir,
    only.length === Object.keys(BENCHMARKS).length ? 'latest.json' : `latest-${only.join('+')}.json`,
  );
  const report = { date: new Date().toISOString(), machine, benchmarks: only, durationMs, rows, missed, raw };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  log(`Results written to ${file}`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `The benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
