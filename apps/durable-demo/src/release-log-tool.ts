import { jsonSchema, tool } from '@rxagent/core';
import { durableTool, idempotencyKey, type DurableTool } from '@rxagent/durable';
import { join } from 'node:path';
import { pause } from './pause.js';
import { readEffects, RELEASE_LOG, writeEffect } from './side-effect-files.js';
import type { WorkerProgress } from './worker-progress.js';

/**
 * Options of `releaseLogTool`.
 *
 * @example
 * const options: ReleaseLogOptions = { dir: '/tmp/release', workerId: 'worker-a', openMs: 300, syncMs: 1500 };
 */
export interface ReleaseLogOptions {
  /** The folder of `release-log.txt`. */
  dir: string;
  /** The worker this tool runs in (named in its progress and result). */
  workerId: string;
  /** How long the call takes before it writes (opening the log; default 300 ms). */
  openMs?: number;
  /** How long it waits after writing (the log "syncing"; default 1500 ms): the window the demo's kill hits. */
  syncMs?: number;
}

/**
 * `append_line`: appends a line to `release-log.txt`, declared **idempotent** for durable runs.
 * It is safe to run again because the line carries the call's `idempotencyKey` (run id + call
 * id, the same on every worker) and a key already in the file is not written twice: a call
 * cut short by a crash after its write is run again by the next worker and writes nothing.
 *
 * @example
 * startWorker({ databaseUrl, models, tools: [releaseLogTool({ dir, workerId: 'worker-a' })] });
 */
export function releaseLogTool(options: ReleaseLogOptions): DurableTool {
  const file = join(options.dir, RELEASE_LOG);
  const appendLine = tool({
    name: 'append_line',
    description: 'Append a line to the release log (idempotent: a repeated call does not write it twice)',
    parameters: jsonSchema<{ line: string }>({
      type: 'object',
      properties: { line: { type: 'string' } },
      required: ['line'],
    }),
    execute: async ({ line }, ctx) => {
      const key = idempotencyKey(ctx);
      const report = (stage: WorkerProgress['stage'], text: string) =>
        ctx.progress({ worker: options.workerId, stage, text } satisfies WorkerProgress);
      await pause(options.openMs ?? 300, ctx);
      if (readEffects(file).some((l) => l.startsWith(`${key} `))) {
        report('skipped', `${key} is already in ${RELEASE_LOG}: not appended again`);
      } else {
        writeEffect(file, key, `${line} (${options.workerId})`);
        report('effect-done', `appended "${line}" to ${RELEASE_LOG}; syncing…`);
      }
      await pause(options.syncMs ?? 1500, ctx);
      return `"${line}" is in the release log (${options.workerId})`;
    },
  });
  return durableTool(appendLine, { durability: 'idempotent' });
}
