// `pnpm demo:durable`: a throwaway PostgreSQL, two durable workers in child processes, one run
// started and watched from this process; the worker running it is killed with SIGKILL mid-run
// and the run finishes on the other. The only file with side effects; everything it starts is
// stopped at the end, on an error, and on Ctrl-C.
import { durableRuns } from '@rxagent/durable';
import { startPostgres, type PostgresServer } from '@rxagent/testing';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { lastValueFrom, tap } from 'rxjs';
import { CleanupStack } from './cleanup-stack.js';
import { crashTrigger } from './crash-trigger.js';
import { parseDemoArgs, USAGE, UsageError, type DurableDemoArgs } from './demo-args.js';
import { exactlyOnce } from './exactly-once.js';
import { modelCallProblems } from './model-calls.js';
import { RELEASE, RELEASE_TASK } from './release-plan.js';
import { RunPrinter } from './run-printer.js';
import { reportRun } from './report-run.js';
import { effectCounts, MODEL_CALLS, NOTIFICATIONS, readEffects, RELEASE_LOG } from './side-effect-files.js';
import { spawnWorker, type WorkerProcess } from './worker-process.js';

const WORKER_IDS = ['worker-a', 'worker-b'] as const;

const out = (text: string) => void process.stdout.write(text);
const err = (line: string) => void process.stderr.write(`${line}\n`);
const cleanup = new CleanupStack(err);

/** The demo; resolves with the exit code (0 when the run survived with every effect once). */
async function demo(args: DurableDemoArgs): Promise<number> {
  out(
    'rxagent durable demo: a run survives the death of its worker (offline: a scripted model, no API key)\n\n',
  );
  const pg = await startPostgres();
  cleanup.push('PostgreSQL', () => stopPostgres(pg));
  out(`PostgreSQL: a throwaway server on 127.0.0.1:${pg.port} (temporary data folder)\n`);

  const dir =
    args.dir !== undefined ? resolve(args.dir) : mkdtempSync(join(tmpdir(), 'rxagent-durable-demo-'));
  mkdirSync(dir, { recursive: true });
  if (args.dir === undefined) {
    cleanup.push('the temporary folder', () => rm(dir, { recursive: true, force: true }));
  }

  // One after the other: two DBOS launches on a fresh database race in its migrations.
  const workers = new Map<string, WorkerProcess>();
  for (const workerId of WORKER_IDS) {
    const worker = spawnWorker({ databaseUrl: pg.url, workerId, dir }, err);
    workers.set(workerId, worker);
    cleanup.push(workerId, () => worker.stop());
    await worker.ready;
    out(`${workerId}: ready (pid ${worker.pid}), taking runs from the queue\n`);
  }

  const runs = await durableRuns({ databaseUrl: pg.url, pollIntervalMs: 100 });
  cleanup.push('the runs client', () => runs.close());
  const runId = await runs.startRun({
    runId: `release-${RELEASE}-${randomUUID().slice(0, 6)}`,
    model: 'release',
    tools: ['notify', 'append_line'],
    ...RELEASE_TASK,
    maxSteps: 10,
  });
  const moment = args.killWhile === 'tool' ? 'while append_line runs' : 'while the model streams';
  out(
    `\nRun ${runId}: started and watched from this process (pid ${process.pid}); a worker dies ${moment}.\n\n`,
  );

  const printer = new RunPrinter(out);
  const killAt = crashTrigger(args.killWhile);
  let killed: WorkerProcess | undefined;
  await lastValueFrom(
    runs.watchRun(runId).pipe(
      tap((event) => {
        printer.event(event);
        const victim = workers.get(killAt(event) ?? '');
        if (!victim) return;
        killed = victim;
        printer.note(`✗ kill -9 ${victim.workerId} (pid ${victim.pid}) ${moment}`);
        void victim
          .kill()
          .then(() =>
            printer.note(
              `  ${victim.workerId} is dead; the other worker finds its liveness lock free and takes the run over…`,
            ),
          );
      }),
    ),
  );
  const result = await runs.runResult(runId);
  const killedBy = killed ? (await killed.exited).signal : undefined;
  const finishedOn = printer.workers.at(-1);

  out(
    `\nResult: ${result.reason} in ${result.steps.length} steps, finished on ${finishedOn ?? 'an unknown worker'}.\n`,
  );
  out(`  ${result.text}\n`);
  for (const [file, what] of [
    [NOTIFICATIONS, 'notify: at most once, never repeated after a crash'],
    [RELEASE_LOG, 'append_line: idempotent, keyed by run id + call id'],
  ] as const) {
    out(`\n${file} (${what}):\n`);
    for (const line of readEffects(join(dir, file))) out(`  ${line}\n`);
  }
  const once = exactlyOnce(runId, result.messages, effectCounts(dir));
  const calls = Object.entries(once.counts)
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
    .map(([call, n]) => `${call} ×${n}`);
  out(`\nSide effects per call: ${calls.join(', ')}\n`);
  const modelCalls = readEffects(join(dir, MODEL_CALLS));
  out(
    `\n${MODEL_CALLS} (each model call a worker made; a replay reads the recorded ones from PostgreSQL):\n`,
  );
  for (const line of modelCalls) out(`  ${line}\n`);

  // The second run, with steering, a guardrail, a JSON shape and parallel tools: a fresh worker
  // first, so that one survives its kill too.
  const spare = spawnWorker({ databaseUrl: pg.url, workerId: 'worker-c', dir }, err);
  workers.set('worker-c', spare);
  cleanup.push('worker-c', () => spare.stop());
  await spare.ready;
  out(`\nworker-c: ready (pid ${spare.pid}), in place of the killed worker\n`);
  const reportProblems = await reportRun({ runs, workers, dir, out });
  if (args.dir !== undefined) out(`(kept in ${dir})\n`);

  const problems = [
    ...(killed ? [] : ['No worker was killed: the run ended before the kill moment.']),
    ...(killed && killedBy !== 'SIGKILL'
      ? [`${killed.workerId} ended by ${killedBy ?? 'itself'}, not SIGKILL.`]
      : []),
    ...(result.reason === 'completed' ? [] : [`The run ended as ${result.reason}, not completed.`]),
    ...(killed && finishedOn === killed.workerId ? [`The run finished on the killed ${finishedOn}.`] : []),
    ...once.problems,
    ...modelCallProblems(modelCalls, result.steps.length, killed?.workerId),
    ...reportProblems,
  ];
  if (problems.length > 0) {
    out(`\n✗ ${problems.join('\n✗ ')}\n\n`);
    return 1;
  }
  out(
    `\n✓ ${killed?.workerId} was killed with SIGKILL mid-run; the run finished on ${finishedOn}; ` +
      'every tool call took effect exactly once, and no recorded model call was made again. ' +
      'The report, steered, guarded and in its JSON shape, survived a kill in the middle of its parallel checks.\n\n',
  );
  return 0;
}

/** A Ctrl-C in a terminal reaches PostgreSQL too, which may then be gone already. */
async function stopPostgres(pg: PostgresServer): Promise<void> {
  try {
    await pg.stop();
  } catch {
    await new Promise((r) => setTimeout(r, 300));
    await pg.stop();
  }
}

let signalCode: number | undefined;

function onSignal(what: string, code: number): void {
  if (cleanup.stopping) return;
  signalCode = code;
  out(`\n${what}: stopping the workers and PostgreSQL…\n`);
  void cleanup.run().then((stopped) => {
    out(`Stopped and cleaned up: ${stopped.join(', ')}.\n`);
    process.exit(code);
  });
}

async function main(): Promise<number> {
  let args: DurableDemoArgs;
  try {
    args = parseDemoArgs(process.argv.slice(2));
  } catch (error) {
    if (UsageError.isInstance(error)) {
      err(error.message);
      return 2;
    }
    throw error;
  }
  if (args.help) {
    out(`${USAGE}\n`);
    return 0;
  }
  process.on('SIGINT', () => onSignal('Interrupted', 130));
  process.on('SIGTERM', () => onSignal('Terminated', 143));
  let code = 1;
  try {
    code = await demo(args);
  } catch (error) {
    if (signalCode === undefined)
      err(`${(error as Error)?.name ?? 'Error'}: ${(error as Error)?.message ?? String(error)}`);
  }
  if (signalCode !== undefined) {
    await cleanup.run(); // onSignal reports it and exits
    return signalCode;
  }
  const stopped = await cleanup.run();
  out(`Stopped and cleaned up: ${stopped.join(', ')}.\n`);
  return code;
}

process.exitCode = await main();
