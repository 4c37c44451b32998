import { RxAgentError } from '@rxagent/core';
import { parseArgs } from 'node:util';
import type { KillMoment } from './crash-trigger.js';

/**
 * The demo's options.
 *
 * @example
 * const args: DurableDemoArgs = { killWhile: 'tool', help: false };
 */
export interface DurableDemoArgs {
  killWhile: KillMoment;
  /** Where the side-effect files go (kept); default a temporary folder removed at the end. */
  dir?: string;
  help: boolean;
}

/** What `--help` prints. */
export const USAGE = `Usage: pnpm demo:durable -- [--kill-while tool|model] [--dir <folder>]

Starts a throwaway PostgreSQL, two durable workers and a run; kills the worker running it with
SIGKILL mid-run and shows the run finishing on the other worker, each tool call taking effect
exactly once. Offline: a scripted model, no API key.

  --kill-while tool    kill it while append_line runs, after its write (default)
  --kill-while model   kill it while the model streams
  --dir <folder>       keep the side-effect files (release-log.txt, notifications.txt) there
  --help               this text`;

/**
 * A usage error: the message says what to change (exit code 2).
 *
 * @example
 * throw new UsageError('--kill-while must be tool or model; got "disk".');
 */
export class UsageError extends RxAgentError {
  static override readonly kind: string = 'UsageError';
}

/**
 * Parses the demo's arguments.
 *
 * @example
 * parseDemoArgs(['--kill-while', 'model']); // { killWhile: 'model', help: false }
 */
export function parseDemoArgs(argv: readonly string[]): DurableDemoArgs {
  let values;
  try {
    ({ values } = parseArgs({
      // `pnpm demo:durable -- --kill-while model` passes the `--` on.
      args: argv[0] === '--' ? argv.slice(1) : [...argv],
      options: {
        'kill-while': { type: 'string', default: 'tool' },
        dir: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${USAGE}`);
  }
  const killWhile = values['kill-while'];
  if (killWhile !== 'tool' && killWhile !== 'model') {
    throw new UsageError(`--kill-while must be tool or model; got ${JSON.stringify(killWhile)}.`);
  }
  if (values.dir === '') throw new UsageError('--dir needs a folder.');
  return { killWhile, help: values.help === true, ...(values.dir !== undefined ? { dir: values.dir } : {}) };
}
