import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { Subscription, type SchedulerAction, type SchedulerLike } from 'rxjs';
import { OutputTail } from './output-tail.js';
import type { TruncationLimits } from './truncate.js';

const GROUP_POLL_MS = 50;
// Longer delays make Node fire a timer at once: they mean no timeout.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * What `runCommand` needs.
 *
 * @example
 * const options: CommandOptions = { command: 'ls', shell: '/bin/sh', cwd: root, env: process.env, timeoutMs: 5000, killGraceMs: 2000, limits, signal, scheduler, onOutput: () => {} };
 */
export interface CommandOptions {
  command: string;
  shell: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `Infinity` (or anything from 2^31 - 1 ms on): no timeout. */
  timeoutMs: number;
  /** Between SIGTERM and SIGKILL of the process group. */
  killGraceMs: number;
  limits: TruncationLimits;
  signal: AbortSignal;
  scheduler: SchedulerLike;
  /** Output text as it arrives (stdout and stderr). */
  onOutput(text: string): void;
}

/**
 * How a command ended.
 *
 * @example
 * const { ended, exitCode, output } = await runCommand(options);
 */
export interface CommandOutcome {
  /** `'exit'`: it ended by itself; otherwise it was killed for a timeout or an abort. */
  ended: 'exit' | 'timeout' | 'aborted';
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  output: OutputTail;
}

/**
 * Runs `shell -c command` in its own process group (`detached`) and resolves when it and its
 * output are done. On timeout or abort the whole group gets SIGTERM, then SIGKILL after
 * `killGraceMs`; when the shell exits by itself, processes it left behind in its group are
 * killed the same way, so no call leaves anything running. Rejects only when it cannot start.
 *
 * @example
 * const outcome = await runCommand({ command: 'ls', shell: '/bin/bash', cwd: root, env: process.env,
 *   timeoutMs: 5000, killGraceMs: 2000, limits, signal, scheduler: asyncScheduler, onOutput: () => {} });
 */
export function runCommand(options: CommandOptions): Promise<CommandOutcome> {
  return new Promise((resolve, reject) => {
    const output = new OutputTail(options.limits);
    if (options.signal.aborted) {
      resolve({ ended: 'aborted', exitCode: null, exitSignal: null, output });
      return;
    }
    const timers = new Subscription();
    let ended: CommandOutcome['ended'] = 'exit';
    let settled = false;
    const child = spawn(options.shell, ['-c', options.command], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const killGroup = (signal: NodeJS.Signals | 0): boolean => {
      if (child.pid === undefined) return false;
      try {
        process.kill(-child.pid, signal);
        return true;
      } catch (error) {
        // ESRCH: every process of the group is gone; EPERM: some are left but not ours to signal.
        return (error as { code?: unknown }).code === 'EPERM';
      }
    };
    let terminating = false;
    const terminate = () => {
      if (terminating || !killGroup(0)) return;
      terminating = true;
      killGroup('SIGTERM');
      // Polled rather than one timer, so nothing is left waiting once the group is gone; not
      // tied to the call settling, since stragglers that ignore SIGTERM must still go.
      let waitedMs = 0;
      options.scheduler.schedule(function (this: SchedulerAction<undefined>) {
        waitedMs += GROUP_POLL_MS;
        if (!killGroup(0)) return;
        if (waitedMs >= options.killGraceMs) killGroup('SIGKILL');
        else this.schedule(undefined, GROUP_POLL_MS);
      }, GROUP_POLL_MS);
    };
    const stop = (reason: 'timeout' | 'aborted') => {
      if (ended !== 'exit' || settled) return;
      ended = reason;
      terminate();
    };
    const onAbort = () => stop('aborted');
    const finish = (exitCode: number | null, exitSignal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      timers.unsubscribe();
      options.signal.removeEventListener('abort', onAbort);
      resolve({ ended, exitCode, exitSignal, output });
    };
    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new StringDecoder('utf8');
      stream.on('data', (chunk: Buffer) => {
        output.push(chunk);
        options.onOutput(decoder.write(chunk));
      });
    }
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      timers.unsubscribe();
      options.signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('exit', (exitCode, exitSignal) => {
      terminate();
      // A process that left the group (setsid) may still hold our pipes: stop waiting for it.
      timers.add(
        options.scheduler.schedule(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          finish(exitCode, exitSignal);
        }, options.killGraceMs + 500),
      );
    });
    child.on('close', (exitCode: number | null, exitSignal: NodeJS.Signals | null) =>
      finish(exitCode, exitSignal),
    );
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.timeoutMs < MAX_TIMER_MS)
      timers.add(options.scheduler.schedule(() => stop('timeout'), options.timeoutMs));
  });
}
