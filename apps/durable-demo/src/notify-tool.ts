import { jsonSchema, tool, type Tool } from '@rxagent/core';
import { idempotencyKey } from '@rxagent/durable';
import { join } from 'node:path';
import { pause } from './pause.js';
import { NOTIFICATIONS, writeEffect } from './side-effect-files.js';
import type { WorkerProgress } from './worker-progress.js';

/**
 * Options of `notifyTool`.
 *
 * @example
 * const options: NotifyOptions = { dir: '/tmp/release', workerId: 'worker-a', sendMs: 400 };
 */
export interface NotifyOptions {
  /** The folder of `notifications.txt`. */
  dir: string;
  workerId: string;
  /** How long sending takes, before the notification is written. */
  sendMs?: number;
}

/**
 * `notify`: "sends" a notification (appends it to `notifications.txt`). Registered as a plain
 * tool, so it is **at-most-once** in durable runs: a completed call is never run again, and a
 * call a crash cut short is sealed with an error result the model reads instead of repeated.
 *
 * @example
 * startWorker({ databaseUrl, models, tools: [notifyTool({ dir, workerId: 'worker-a' })] });
 */
export function notifyTool(options: NotifyOptions): Tool<{ message: string }, string> {
  const file = join(options.dir, NOTIFICATIONS);
  return tool({
    name: 'notify',
    description: 'Send a notification to the team (at most once: never repeated after a crash)',
    parameters: jsonSchema<{ message: string }>({
      type: 'object',
      properties: { message: { type: 'string' } },
      required: ['message'],
    }),
    execute: async ({ message }, ctx) => {
      const report = (stage: WorkerProgress['stage'], text: string) =>
        ctx.progress({ worker: options.workerId, stage, text } satisfies WorkerProgress);
      report('started', `sending "${message}"`);
      await pause(options.sendMs ?? 400, ctx);
      if (ctx.signal.aborted) throw new Error('The notification was not sent: the call was aborted.');
      writeEffect(file, idempotencyKey(ctx), `${message} (${options.workerId})`);
      return `sent "${message}" (${options.workerId})`;
    },
  });
}
