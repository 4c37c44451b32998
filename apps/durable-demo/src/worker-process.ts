import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import type { WorkerSettings } from './worker-settings.js';

/** The compiled worker entry next to this file (dist/worker-main.js). */
const WORKER_MAIN = fileURLToPath(new URL('./worker-main.js', import.meta.url));

/**
 * A worker of the demo running in its own process.
 *
 * @example
 * const worker = spawnWorker(settings, (line) => console.error(line));
 * await worker.ready;
 * await worker.kill(); // SIGKILL
 */
export interface WorkerProcess {
  readonly workerId: string;
  readonly pid: number | undefined;
  /** Resolves once the worker takes runs; rejects if it exits before. */
  readonly ready: Promise<void>;
  /** Resolves with the exit code, or the signal that ended it. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** kill -9: the process dies on the spot, whatever it was doing. */
  kill(): Promise<void>;
  /** SIGTERM (the worker stops cleanly), then SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Starts a worker process (`node dist/worker-main.js <settings>`). Only PATH of the
 * environment reaches it. Its stderr lines go to `onStderr`.
 *
 * @example
 * const a = spawnWorker({ databaseUrl: pg.url, workerId: 'worker-a', dir }, console.error);
 */
export function spawnWorker(settings: WorkerSettings, onStderr: (line: string) => void): WorkerProcess {
  const child: ChildProcess = spawn(process.execPath, [WORKER_MAIN, JSON.stringify(settings)], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  createInterface({ input: child.stderr! }).on('line', (line) => onStderr(`${settings.workerId} │ ${line}`));
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line === `ready ${settings.workerId}`) resolve();
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`${settings.workerId} exited before it was ready (${signal ?? `code ${code}`}).`)),
    );
  });
  ready.catch(() => undefined);
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    workerId: settings.workerId,
    pid: child.pid,
    ready,
    exited,
    async kill() {
      if (running()) child.kill('SIGKILL');
      await exited;
    },
    async stop(graceMs = 5000) {
      if (!running()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
