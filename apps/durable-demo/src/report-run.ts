import type { DurableRuns } from '@rxagent/durable';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { lastValueFrom, tap } from 'rxjs';
import { CHECKS, REPORT_CALLS, SERVICES, STEERING } from './report-plan.js';
import { RELEASE } from './release-plan.js';
import { RunPrinter } from './run-printer.js';
import { readEffects } from './side-effect-files.js';
import { isWorkerProgress } from './worker-progress.js';
import type { WorkerProcess } from './worker-process.js';

/**
 * The demo's second run: a release report that checks three services in parallel
 * (`toolConcurrency`), is steered while it checks, passes a named output guardrail and answers
 * in a named JSON shape. The worker running it is killed with SIGKILL once the first check is
 * done and the two others are still running. Resolves with what went wrong (empty: all held).
 *
 * @example
 * const problems = await reportRun({ runs, workers, dir, out: (t) => process.stdout.write(t) });
 */
export async function reportRun(env: {
  runs: DurableRuns;
  workers: ReadonlyMap<string, WorkerProcess>;
  dir: string;
  out: (text: string) => void;
}): Promise<string[]> {
  const { runs, workers, dir, out } = env;
  const runId = await runs.startRun({
    runId: `report-${RELEASE}-${randomUUID().slice(0, 6)}`,
    model: 'report',
    tools: ['check_service'],
    prompt: `Write the report of release ${RELEASE}: check every service.`,
    toolConcurrency: 3,
    outputGuardrails: ['no-secrets'],
    output: 'release-report',
    outputMode: 'native',
  });
  out(
    `\nRun ${runId}: three service checks at once, a steering message, the output guardrail "no-secrets", ` +
      'the JSON shape "release-report"; a worker dies while two checks still run.\n\n',
  );
  const printer = new RunPrinter(out);
  let current: string | undefined;
  let steered: Promise<boolean> | undefined;
  let killed: WorkerProcess | undefined;
  await lastValueFrom(
    runs.watchRun(runId).pipe(
      tap((event) => {
        printer.event(event);
        if (event.type === 'tool-update' && isWorkerProgress(event.progress)) current = event.progress.worker;
        if (event.type === 'tool-start' && !steered) {
          printer.note(`✎ runs.steer: "${STEERING}"`);
          steered = runs.steer(runId, STEERING);
        }
        const victim = workers.get(current ?? '');
        if (event.type === 'tool-end' && event.toolCallId === 'check_1' && !killed && victim) {
          killed = victim;
          printer.note(`✗ kill -9 ${victim.workerId} (pid ${victim.pid}) while check_2 and check_3 run`);
          void victim.kill();
        }
      }),
    ),
  );
  const result = await runs.runResult(runId);
  const output = result.output as { note?: string; services?: unknown[] } | undefined;
  out(`\nResult: ${result.reason}, finished on ${printer.workers.at(-1) ?? 'an unknown worker'}; output:\n`);
  out(`  ${JSON.stringify(output)}\n`);
  const checks = readEffects(join(dir, CHECKS)).filter((l) => l.startsWith(`${runId}:`));
  out(`\n${CHECKS} (check_service: idempotent, keyed by run id + call id):\n`);
  for (const line of checks) out(`  ${line}\n`);
  const calls = readEffects(join(dir, REPORT_CALLS));
  out(`\n${REPORT_CALLS}:\n`);
  for (const line of calls) out(`  ${line}\n`);
  const killedBy = killed ? (await killed.exited).signal : undefined;
  return [
    ...(killed && killedBy === 'SIGKILL'
      ? []
      : ['No worker of the report was killed with SIGKILL mid-batch.']),
    ...((await steered) ? [] : ['The steering message was not accepted.']),
    ...(result.reason === 'completed' ? [] : [`The report ended as ${result.reason}, not completed.`]),
    ...(output?.note?.startsWith('Rollback plan')
      ? []
      : ['The report does not carry the steered rollback plan.']),
    ...(output?.services?.length === SERVICES.length ? [] : ['The report does not list every service.']),
    ...(checks.length === SERVICES.length &&
    new Set(checks.map((l) => l.split(' ')[0])).size === SERVICES.length
      ? []
      : [`${checks.length} check lines, expected one per service.`]),
    ...(calls.filter((l) => l.startsWith('report step 1 ')).length === 1
      ? []
      : ['The report’s first model call was made again.']),
  ];
}
