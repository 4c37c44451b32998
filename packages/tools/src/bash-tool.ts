import { access } from 'node:fs/promises';
import { tool, type Tool } from '@rxagent/core';
import { z } from 'zod';
import type { TaskRuntime } from '@rxagent/subagents';
import { startBackgroundCommand, type BashStarted } from './bash-background.js';
import { batchProgress } from './bash-progress.js';
import { commandEnv } from './command-env.js';
import { resolveInRoot } from './resolve-in-root.js';
import { runCommand } from './run-command.js';
import { BackgroundUnavailableError, CommandKilledError } from './tool-errors.js';
import { formatBytes, MAX_BYTES, MAX_LINES } from './truncate.js';

export type { BashProgress } from './bash-progress.js';
export type { BashStarted } from './bash-background.js';

const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_KILL_GRACE_MS = 2_000;
const DEFAULT_PROGRESS_INTERVAL_MS = 100;
// Timers cannot wait longer (Node fires them at once instead): anything from here on means none.
const MAX_TIMER_MS = 2 ** 31 - 1;

const bashParameters = z.object({
  command: z.string().min(1).describe('The shell command to run (bash -c), in the root folder.'),
  timeoutMs: z.number().int().min(1).optional().describe('Kill the command after this many ms.'),
  background: z
    .boolean()
    .optional()
    .describe('Run it in the background: returns a task id at once (read it with task_output).'),
});

/**
 * Arguments of the `bash` tool.
 *
 * @example
 * const args: BashArgs = { command: 'npm test', timeoutMs: 300_000 };
 */
export type BashArgs = z.infer<typeof bashParameters>;

/**
 * What a finished command gives back; the model reads it formatted by `toModelOutput`.
 *
 * @example
 * const { exitCode, output } = (await bash.execute({ command: 'ls' }, ctx)) as BashResult;
 */
export interface BashResult {
  /** null when the command was ended by a signal. */
  exitCode: number | null;
  signal: string | null;
  /** The tail of stdout and stderr, interleaved as they arrived. */
  output: string;
  truncated: boolean;
  totalLines: number;
  totalBytes: number;
}

/**
 * Options of `bashTool`.
 *
 * @example
 * const options: BashToolOptions = { root: '/work/project', timeoutMs: 60_000, env: { CI: '1' } };
 */
export interface BashToolOptions {
  /** The folder commands run in. It is the cwd only: a command can still reach any path. */
  root: string;
  /** Timeout of a call that gives none (default 120 000 ms; `Infinity` or ≥ 2^31 - 1: none). */
  timeoutMs?: number;
  /** The most a call may ask for with its `timeoutMs` (default: `timeoutMs`; `Infinity`: no cap). */
  maxTimeoutMs?: number;
  /** Wait for approval before each command (default true). */
  needsApproval?: boolean | ((args: BashArgs) => boolean);
  /**
   * Variables set on top of the environment (always passed, whatever their names; `undefined`
   * removes one). The environment is `process.env` without secret-looking variables.
   */
  env?: Record<string, string | undefined>;
  /**
   * Secret-looking variables of `process.env` to pass anyway, by exact name. By default
   * variables such as `OPENAI_API_KEY`, `*_TOKEN`, `*_SECRET`, `*_PASSWORD` are not passed
   * (see `isSecretEnvName`).
   */
  passEnv?: readonly string[];
  /** Default `/bin/bash`, or `/bin/sh` where there is no bash. */
  shell?: string;
  /** Between SIGTERM and SIGKILL when a command is killed (default 2000 ms). */
  killGraceMs?: number;
  /** How often output is reported as progress (default 100 ms). */
  progressIntervalMs?: number;
  /**
   * Enables `{ command, background: true }`: the command runs as a task of this runtime and
   * the call returns its id at once. Background commands have no timeout unless the call
   * gives `timeoutMs`; they are killed when the task is cancelled.
   */
  tasks?: TaskRuntime;
}

/**
 * The `bash` tool: runs a shell command with the root as cwd, returning the last 2,000 lines /
 * 50 KB of its output and its exit code, streaming output as progress (bounded: see
 * `BashProgress`). Timeout and abort kill its whole process group. Secret-looking environment
 * variables are not passed unless listed in `passEnv`. POSIX only.
 *
 * It is never part of `fileTools`/`readOnlyTools`: a command can do anything the process can
 * (the root is only its working folder). Pair it with approval — `needsApproval` is true by
 * default, so give the run an `approver` — or a `toolGate`.
 *
 * @example
 * const bash = bashTool({ root: '/work/project', timeoutMs: 60_000 });
 * runAgent({ model, prompt: 'Run the tests', tools: [...Object.values(fileTools({ root })), bash],
 *   approver: async ({ args }) => confirm(`Run ${(args as BashArgs).command}?`) });
 */
export function bashTool(options: BashToolOptions): Tool<BashArgs, BashResult | BashStarted> {
  const defaultTimeoutMs = noTimeoutFrom(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const maxTimeoutMs = noTimeoutFrom(options.maxTimeoutMs ?? defaultTimeoutMs);
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  return tool({
    name: 'bash',
    description:
      'Run a shell command (bash -c) in the root folder. Returns the exit code and the last ' +
      `${MAX_LINES} lines / 50 KB of stdout and stderr. ${timeoutText(defaultTimeoutMs, maxTimeoutMs)} ` +
      'Processes left running are killed.' +
      (options.tasks
        ? ' With background: true it returns a task id at once; check it with task_output.'
        : ''),
    parameters: bashParameters,
    needsApproval: options.needsApproval ?? true,
    concurrencySafe: false,
    interrupt: 'cancel',
    // The run's own tool timeout (30 s by default) must not cut in before this tool's.
    timeoutMs: maxTimeoutMs + killGraceMs + 1_000,
    toModelOutput: formatResult,
    execute: async ({ command, timeoutMs, background }, ctx) => {
      const cwd = (await resolveInRoot(options.root, '.')).absolute;
      if (background) {
        if (!options.tasks) throw new BackgroundUnavailableError();
        return startBackgroundCommand(options.tasks, {
          command,
          cwd,
          shell: options.shell ?? (await defaultShell()),
          env: commandEnv(process.env, { passEnv: options.passEnv, env: options.env }),
          // A background command (a server, a watcher) runs until cancelled unless the call asks.
          timeoutMs: timeoutMs === undefined ? Infinity : noTimeoutFrom(Math.min(timeoutMs, maxTimeoutMs)),
          killGraceMs,
          limits: { maxLines: MAX_LINES, maxBytes: MAX_BYTES },
          scheduler: ctx.scheduler,
        });
      }
      const limitMs = noTimeoutFrom(Math.min(timeoutMs ?? defaultTimeoutMs, maxTimeoutMs));
      const progress = batchProgress(ctx, options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS);
      const outcome = await runCommand({
        command,
        cwd,
        shell: options.shell ?? (await defaultShell()),
        env: commandEnv(process.env, { passEnv: options.passEnv, env: options.env }),
        timeoutMs: limitMs,
        killGraceMs,
        limits: { maxLines: MAX_LINES, maxBytes: MAX_BYTES },
        signal: ctx.signal,
        scheduler: ctx.scheduler,
        onOutput: progress.push,
      }).finally(progress.flush);
      const tail = outcome.output.read();
      if (outcome.ended !== 'exit')
        throw new CommandKilledError(outcome.ended, tail.text, limitMs, maxTimeoutMs);
      return {
        exitCode: outcome.exitCode,
        signal: outcome.exitSignal,
        output: tail.text,
        truncated: tail.truncated,
        totalLines: tail.totalLines,
        totalBytes: tail.totalBytes,
      };
    },
  });
}

function formatResult(result: BashResult | BashStarted): string {
  if ('taskId' in result) {
    return `Started in the background as ${result.taskId}. Its result will arrive as a message when it ends; check it sooner with task_output({ "taskId": "${result.taskId}" }).`;
  }
  const parts: string[] = [];
  if (result.truncated) {
    parts.push(
      `[Output truncated: showing the end of ${result.totalLines} lines (${formatBytes(result.totalBytes)}). ` +
        'Redirect the output to a file and use read or grep to see the rest.]',
    );
  }
  parts.push(result.output === '' ? '(no output)' : result.output);
  parts.push(
    result.exitCode === null
      ? `[killed by signal ${result.signal ?? 'unknown'}]`
      : `[exit code ${result.exitCode}]`,
  );
  return parts.join('\n\n');
}

/** `Infinity` for timeouts no timer can wait for (and for `Infinity` itself). */
function noTimeoutFrom(ms: number): number {
  return ms >= MAX_TIMER_MS || Number.isNaN(ms) ? Infinity : ms;
}

function timeoutText(defaultMs: number, maxMs: number): string {
  if (defaultMs === Infinity && maxMs === Infinity) return 'No timeout.';
  const cap = maxMs === Infinity ? 'any' : `up to ${maxMs}`;
  return defaultMs === Infinity
    ? `No timeout unless timeoutMs asks for one (${cap} ms).`
    : `Times out after ${defaultMs} ms (timeoutMs may ask for ${cap}).`;
}

async function defaultShell(): Promise<string> {
  try {
    await access('/bin/bash');
    return '/bin/bash';
  } catch {
    return '/bin/sh';
  }
}
