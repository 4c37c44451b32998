import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { AgentEvent, AgentMessage } from '@rxagent/core';

// Shared by the durable specs: workers in child processes (what crash tests need), and ways
// to compare runs.

const packageRoot = resolve(__dirname, '..');
const repoRoot = resolve(packageRoot, '../..');

/** Builds the package and what it needs, so child processes can import them; incremental. */
export function ensureBuilt(): void {
  const tsc = createRequire(join(repoRoot, 'package.json')).resolve('typescript/bin/tsc');
  for (const pkg of ['durable', 'testing']) {
    execFileSync(process.execPath, [tsc, '-b', join(repoRoot, 'packages', pkg, 'tsconfig.build.json')], {
      cwd: repoRoot,
    });
  }
  if (!existsSync(join(packageRoot, 'dist/index.js'))) throw new Error('@rxagent/durable did not build.');
}

/** Settings of a worker process (see test/worker-process.mjs). */
export interface WorkerSettings {
  databaseUrl: string;
  workerId: string;
  file: string;
  toolDelayMs?: number;
  latencyMs?: number;
  lines?: number;
  deadAfterMs?: number;
  perWorker?: number;
}

/** A worker process. */
export interface WorkerProcess {
  child: ChildProcess;
  ready: Promise<void>;
  exited: Promise<number | null>;
  /** kill -9. */
  crash(): Promise<void>;
  /** SIGTERM, then waits for it to stop. */
  stop(): Promise<void>;
}

/** Starts a worker in a child process; only PATH of the environment reaches it. */
export function spawnWorker(settings: WorkerSettings): WorkerProcess {
  const child = spawn(
    process.execPath,
    [join(packageRoot, 'test/worker-process.mjs'), JSON.stringify(settings)],
    {
      cwd: packageRoot,
      env: { PATH: process.env.PATH ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const ready = new Promise<void>((resolveReady, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      if (line.startsWith('ready ')) resolveReady();
    });
    void exited.then((code) =>
      reject(new Error(`worker ${settings.workerId} exited with ${code}:\n${stderr}`)),
    );
  });
  ready.catch(() => undefined);
  return {
    child,
    ready,
    exited,
    async crash() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The lines the tools appended: `<run id>:<call id>` or `<run id> <call id>` keys, counted. */
export function appendedLines(file: string): string[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
    : [];
}

/** A transcript without what differs between executions by nature: message times. */
export function withoutTimes(messages: readonly AgentMessage[]): unknown[] {
  return messages.map((m) => {
    const { timestamp: _t, ...rest } = m;
    return rest;
  });
}

/** The events that come exactly once (all but deltas and progress), as type and identity. */
export function stableEvents(events: readonly AgentEvent[]): string[] {
  return events
    .filter((e) => e.type !== 'message-update' && !(e.type === 'tool-update' && e.kind === 'progress'))
    .map((e) => ('toolCallId' in e ? `${e.type}:${e.toolCallId}` : e.type));
}

/** Resolves when `predicate` holds, checking every 20 ms, or fails after `timeoutMs`. */
export async function waitFor(predicate: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
