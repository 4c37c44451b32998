import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { AgentEvent, AgentMessage } from '@rxagent/core';
import { durableRuns, type DurableRuns } from '@rxagent/durable';
import { startPostgres, type PostgresServer } from '@rxagent/testing';

// Shared by the durable specs: workers in child processes (what crash tests need), and ways
// to compare runs.

const packageRoot = resolve(__dirname, '..');
const repoRoot = resolve(packageRoot, '../..');

/** Builds the package and what it needs, so child processes can import them; incremental. */
export function ensureBuilt(): void {
  const tsc = createRequire(join(repoRoot, 'package.json')).resolve('typescript/bin/tsc');
  for (const pkg of ['durable', 'testing', 'mcp', 'context']) {
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
  /** `"<runId> <callId>"`: that call never ends on this worker (it is killed while it runs). */
  holdCall?: string;
  /** `"<prompt>|<tool results so far>"`: that model call stops after its first delta on this worker. */
  holdModel?: string;
  /** The parallel model's delay unit: call n of a batch of 4 waits (4 - n) × stepMs. */
  stepMs?: number;
  /** Start server-everything (MCP, stdio) and register its get-sum and echo tools. */
  mcp?: boolean;
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
  /** What it wrote to stderr (the last 4000 characters; empty with RXAGENT_DURABLE_DEBUG). */
  stderr(): string;
}

/** Starts a worker in a child process; only PATH of the environment reaches it. */
export function spawnWorker(settings: WorkerSettings): WorkerProcess {
  // RXAGENT_DURABLE_DEBUG reaches the workers (only ids and error names, no secrets).
  const debug = process.env.RXAGENT_DURABLE_DEBUG;
  const child = spawn(
    process.execPath,
    [join(packageRoot, 'test/worker-process.mjs'), JSON.stringify(settings)],
    {
      cwd: packageRoot,
      env: {
        PATH: process.env.PATH ?? '',
        ...(debug ? { RXAGENT_DURABLE_DEBUG: debug } : {}),
      },
      stdio: ['ignore', 'pipe', debug ? 'inherit' : 'pipe'],
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
    stderr: () => stderr,
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

/** Watches run `id` to its end (its log's completion), each event given to `onEvent` as it comes; its events. */
export async function watchToEnd(
  runs: DurableRuns,
  id: string,
  onEvent: (event: AgentEvent) => void = () => undefined,
): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  await new Promise<void>((resolve, reject) =>
    runs.watchRun(id).subscribe({
      next: (e) => {
        events.push(e);
        onEvent(e);
      },
      error: reject,
      complete: resolve,
    }),
  );
  return events;
}

/** What the durable specs share: PostgreSQL, a client, a folder for side effects, workers. */
export interface DurableTestbed {
  readonly pg: PostgresServer;
  readonly runs: DurableRuns;
  /** The file the workers' tools append to (`<file>.calls` logs model calls). */
  readonly file: string;
  /** Starts a worker process on this testbed and waits until it takes runs. */
  worker(workerId: string, extra?: Partial<WorkerSettings>): Promise<WorkerProcess>;
  /** Stops every worker started so far. */
  stopWorkers(): Promise<void>;
}

/**
 * Registers `beforeAll` / `afterAll` hooks that build the package, start PostgreSQL and a
 * client, and stop them all (workers included) after the file's tests.
 */
export function durableTestbed(
  options: { pollIntervalMs?: number; timeoutMs?: number } = {},
): DurableTestbed {
  let pg: PostgresServer | undefined;
  let runs: DurableRuns | undefined;
  let dir = '';
  const workers: WorkerProcess[] = [];
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`The testbed's ${what} is not started: use it inside a test.`);
    return value;
  };
  const bed: DurableTestbed = {
    get pg() {
      return ready(pg, 'PostgreSQL');
    },
    get runs() {
      return ready(runs, 'client');
    },
    get file() {
      return join(dir, 'lines.txt');
    },
    async worker(workerId, extra = {}) {
      const w = spawnWorker({ databaseUrl: bed.pg.url, workerId, file: bed.file, ...extra });
      workers.push(w);
      await w.ready;
      return w;
    },
    async stopWorkers() {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
    },
  };
  beforeAll(async () => {
    ensureBuilt();
    pg = await startPostgres();
    dir = mkdtempSync(join(tmpdir(), 'rxagent-durable-'));
    runs = await durableRuns({ databaseUrl: pg.url, ...options });
  });
  afterAll(async () => {
    await runs?.close();
    await bed.stopWorkers();
    await pg?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return bed;
}
