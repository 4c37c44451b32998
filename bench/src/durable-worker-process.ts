import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A benchmark worker in a child process (`durable-worker.ts`). */
export interface BenchWorkerProcess {
  readonly workerId: string;
  /** Resolves once the worker takes runs; rejects if it exits first or takes longer than 60 s. */
  readonly ready: Promise<void>;
  /** SIGTERM (the worker stops cleanly), then SIGKILL if it has not exited after 10 s. */
  stop(): Promise<void>;
}

/**
 * Starts `script` (the compiled `durable-worker.js`) in a child process; only PATH of the
 * environment reaches it.
 *
 * @example
 * const worker = spawnBenchWorker('bench/dist/durable-worker.js', { databaseUrl, workerId: 'w1' });
 * try { await worker.ready; } finally { await worker.stop(); }
 */
export function spawnBenchWorker(
  script: string,
  settings: { databaseUrl: string; workerId: string; perWorker?: number },
): BenchWorkerProcess {
  const child = spawn(process.execPath, [script, JSON.stringify(settings)], {
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Worker ${settings.workerId} not ready after 60 s.`)),
      60_000,
    );
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('ready ')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(
        new Error(`Worker ${settings.workerId} exited (${child.exitCode ?? child.signalCode}):\n${stderr}`),
      );
    });
  });
  ready.catch(() => undefined);
  return {
    workerId: settings.workerId,
    ready,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
