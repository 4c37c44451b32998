import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { benchAnthropicAdapter, benchOpenAIAdapter } from './adapter-bench.js';
import { benchConcurrency } from './concurrency-bench.js';
import { formatMachineInfo, machineInfo } from './machine-info.js';
import { formatTable, missedTargets, type Row } from './report.js';
import { benchStreaming } from './streaming-bench.js';
import { adapterRows } from './adapter-rows.js';
import { concurrencyRows } from './concurrency-rows.js';
import { streamingRows, toolLoopRows } from './targets.js';
import { benchToolLoop, perStepGrowth, type ToolLoopResult } from './tool-loop-bench.js';

const log = (line: string) => process.stdout.write(`${line}\n`);

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work();
  log(`… ${label} (${((performance.now() - start) / 1000).toFixed(1)} s)`);
  return result;
}

async function main(): Promise<void> {
  const started = performance.now();
  const machine = machineInfo();
  log(`rxagent benchmark — ${formatMachineInfo(machine)}`);
  log(
    'Each figure is the median of 7 runs after a warm-up (≥ 3 runs and ≥ 300 ms), in steady state (no forced GC between runs); ratios are costs relative to the baseline.\n',
  );
  const rows: Row[] = [];
  const raw: Record<string, unknown> = {};

  for (const deltas of [10_000, 100_000]) {
    const result = await timed(`streaming ${deltas.toLocaleString('en-US')} deltas`, () =>
      benchStreaming(deltas),
    );
    raw[`streaming-${deltas}`] = result;
    rows.push(...streamingRows(result));
  }

  const loops: ToolLoopResult[] = [];
  for (const steps of [100, 1_000, 10_000]) {
    // The shorter runs warmed the JIT up; one warm-up run of the longest is enough.
    const options = steps >= 10_000 ? { warmup: 1, warmupMs: 0 } : undefined;
    loops.push(
      await timed(`tool loop, ${steps.toLocaleString('en-US')} steps`, () => benchToolLoop(steps, options)),
    );
  }
  const growth = await timed('tool loop growth, 10,000 vs 100 × 100 steps, back to back', () =>
    Promise.resolve(perStepGrowth(10_000, 100)),
  );
  raw['tool-loop'] = { loops, growth };
  rows.push(...toolLoopRows(loops, growth));

  const concurrency = await timed('concurrency memory, 10,000 pending runs', () => benchConcurrency(10_000));
  raw.concurrency = concurrency;
  rows.push(...concurrencyRows(concurrency));

  const openaiResult = await timed('OpenAI chat adapter, 5,000 deltas', () => benchOpenAIAdapter(5_000));
  const anthropicResult = await timed('Anthropic adapter, 5,000 deltas', () => benchAnthropicAdapter(5_000));
  raw.adapters = [openaiResult, anthropicResult];
  rows.push(...adapterRows(openaiResult), ...adapterRows(anthropicResult));

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
  const file = join(outDir, 'latest.json');
  const report = { date: new Date().toISOString(), machine, durationMs, rows, missed, raw };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  log(`Results written to ${file}`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `The benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
