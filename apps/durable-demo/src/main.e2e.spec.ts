// End to end: the BUILT crash demo (apps/durable-demo/dist/main.js) as a child process, with
// its real PostgreSQL and its two real worker processes, no API key in its environment.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '../../..');
const mainJs = join(repoRoot, 'apps/durable-demo/dist/main.js');

jest.setTimeout(120_000);

beforeAll(() => {
  // Incremental: builds the demo and what it imports when a source changed.
  const tsc = createRequire(join(repoRoot, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', join(repoRoot, 'apps/durable-demo/tsconfig.build.json')], {
    cwd: repoRoot,
  });
}, 300_000);

interface Demo {
  child: ChildProcess;
  stdout(): string;
  waitFor(pattern: RegExp): Promise<void>;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

const running: Demo[] = [];

afterEach(async () => {
  // A failed test must not leave its demo (and so PostgreSQL) behind.
  for (const demo of running.splice(0)) {
    if (demo.child.exitCode === null && demo.child.signalCode === null) demo.child.kill('SIGINT');
    await demo.exited;
  }
});

function startDemo(args: string[]): Demo {
  const env = { ...process.env };
  for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'INIT_CWD', 'FORCE_COLOR']) delete env[name];
  const child = spawn(process.execPath, [mainJs, ...args], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const w of waiters.filter((w) => w.pattern.test(out))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve();
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((r) =>
    child.on('close', (code) => r({ code, stdout: out, stderr: err })),
  );
  const demo: Demo = {
    child,
    stdout: () => out,
    waitFor: (pattern) =>
      pattern.test(out)
        ? Promise.resolve()
        : new Promise<void>((resolveWait, reject) => {
            waiters.push({ pattern, resolve: resolveWait });
            void exited.then(() =>
              reject(new Error(`exited before ${pattern}; stdout:\n${out}\nstderr:\n${err}`)),
            );
          }),
    exited,
  };
  running.push(demo);
  return demo;
}

/** Live processes whose command line holds every one of `args` (e.g. PostgreSQL's `-p <port>`). */
function processesWith(...args: string[]): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    let cmdline: string[];
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // it ended meanwhile
    }
    if (args.every((a) => cmdline.includes(a))) found.push(`${pid}: ${cmdline.join(' ')}`);
  }
  return found;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function refusesConnections(port: number): Promise<boolean> {
  return new Promise((r) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      r(false);
    });
    socket.once('error', () => r(true));
  });
}

/** What the demo printed about what it started: PostgreSQL's port and the workers' pids. */
function started(stdout: string): { port: number; pids: Record<string, number> } {
  const port = Number(/^PostgreSQL: a throwaway server on 127\.0\.0\.1:(\d+) /m.exec(stdout)?.[1]);
  const pids: Record<string, number> = {};
  for (const [, id, pid] of stdout.matchAll(/^(worker-[abc]): ready \(pid (\d+)\)/gm))
    pids[id!] = Number(pid);
  return { port, pids };
}

async function expectNothingLeft(
  stdout: string,
  workers: string[] = ['worker-a', 'worker-b', 'worker-c'],
): Promise<void> {
  const { port, pids } = started(stdout);
  expect(port).toBeGreaterThan(0);
  expect(Object.keys(pids).sort()).toEqual(workers);
  expect(processesWith('-p', String(port))).toEqual([]); // no postmaster (nor runuser) of its PostgreSQL
  expect(await refusesConnections(port)).toBe(true);
  for (const pid of Object.values(pids)) expect(isAlive(pid)).toBe(false);
}

const lines = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l)
    : [];

describe.each([
  ['tool', 'while append_line runs'],
  ['model', 'while the model streams'],
] as const)('pnpm demo:durable --kill-while %s', (moment, phrase) => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'durable-demo-e2e-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('kills the worker running the run; the run completes on the other; each call took effect once; all stopped', async () => {
    const { code, stdout, stderr } = await startDemo(['--kill-while', moment, '--dir', dir]).exited;
    expect(stderr).toBe('');
    expect(code).toBe(0);

    const kill = new RegExp(`^✗ kill -9 (worker-[ab]) \\(pid (\\d+)\\) ${phrase}$`, 'm').exec(stdout);
    expect(kill).not.toBeNull();
    const [, killed, killedPid] = kill!;
    const survivor = killed === 'worker-a' ? 'worker-b' : 'worker-a';
    expect(started(stdout).pids[killed!]).toBe(Number(killedPid));
    // The killed worker ran the run's first calls; the other one took it over and finished it.
    expect(stdout).toContain(`    ${killed} │ sending "Release 1.4.2 started"`);
    expect(stdout).toMatch(new RegExp(`^  ↪ ${survivor} took the run over`, 'm'));
    expect(stdout.indexOf(`↪ ${survivor} took the run over`)).toBeGreaterThan(stdout.indexOf('✗ kill -9'));
    expect(stdout).toContain(`Result: completed in 6 steps, finished on ${survivor}.`);
    expect(stdout).toContain(
      `✓ ${killed} was killed with SIGKILL mid-run; the run finished on ${survivor}; every tool call took effect ` +
        'exactly once, and no recorded model call was made again.',
    );
    expect(stdout).toContain(`  ✓ notify: sent "Release 1.4.2 is live" (${survivor})`);
    if (moment === 'tool') {
      // call_3 wrote its line on the killed worker; run again on the survivor, its key stopped a second write.
      expect(stdout).toMatch(
        new RegExp(
          `^    ${survivor} │ \\S+:call_3 is already in release-log\\.txt: not appended again$`,
          'm',
        ),
      );
    }

    // The side effects, read from the files themselves: every call once, none twice.
    const runId = /^Run (release-1\.4\.2-\w+): started/m.exec(stdout)?.[1];
    expect(runId).toBeDefined();
    const notifications = lines(join(dir, 'notifications.txt'));
    const log = lines(join(dir, 'release-log.txt'));
    expect(notifications).toEqual([
      `${runId}:call_1 Release 1.4.2 started (${killed})`,
      `${runId}:call_5 Release 1.4.2 is live (${survivor})`,
    ]);
    expect(log).toEqual([
      `${runId}:call_2 built 1.4.2 (${killed})`,
      `${runId}:call_3 migrated the database to schema 42 (${moment === 'tool' ? killed : survivor})`,
      `${runId}:call_4 switched traffic to 1.4.2 (${survivor})`,
    ]);
    expect(stdout).toContain('Side effects per call: call_1 ×1, call_2 ×1, call_3 ×1, call_4 ×1, call_5 ×1');
    // Model calls: the killed worker made steps 1–3; the survivor replayed them from their records
    // and called the model from step 4 on — or from step 3, when the kill cut that call short.
    const firstOnSurvivor = moment === 'tool' ? 4 : 3;
    expect(lines(join(dir, 'model-calls.txt'))).toEqual([
      ...[1, 2, 3].map((n) => `step ${n} (${killed})`),
      ...[3, 4, 5, 6].filter((n) => n >= firstOnSurvivor).map((n) => `step ${n} (${survivor})`),
    ]);

    // The report: steered, guarded, in its JSON shape, its parallel checks cut by a kill, each once.
    const reportKill = /^✗ kill -9 (worker-[abc]) \(pid \d+\) while check_2 and check_3 run$/m.exec(stdout);
    expect(reportKill).not.toBeNull();
    expect(stdout).toContain('✎ runs.steer: "Add the rollback plan to the report."');
    const reportId = /^Run (report-1\.4\.2-\w+): three service checks/m.exec(stdout)?.[1];
    const checks = lines(join(dir, 'checks.txt'));
    expect(checks.map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual([
      `${reportId}:check_1 api`,
      `${reportId}:check_2 db`,
      `${reportId}:check_3 queue`,
    ]);
    expect(checks[0]).toContain(`(${reportKill![1]})`);
    expect(checks.slice(1).every((l) => !l.includes(`(${reportKill![1]})`))).toBe(true);
    expect(stdout).toContain('"note":"Rollback plan: switch traffic back to the release before 1.4.2."');
    expect(lines(join(dir, 'report-model-calls.txt'))).toHaveLength(2);

    expect(stdout).toMatch(
      /^Stopped and cleaned up: worker-c, the runs client, worker-b, worker-a, PostgreSQL\.$/m,
    );
    await expectNothingLeft(stdout);
  });
});

describe('pnpm demo:durable, interrupted', () => {
  it('Ctrl-C mid-run stops the workers and PostgreSQL and exits with 130', async () => {
    const demo = startDemo([]);
    await demo.waitFor(/^step 2$/m);
    demo.child.kill('SIGINT');
    const { code, stdout } = await demo.exited;
    expect(code).toBe(130);
    expect(stdout).toMatch(/^Interrupted: stopping the workers and PostgreSQL…$/m);
    expect(stdout).toMatch(
      /^Stopped and cleaned up: .*worker-b, worker-a, the temporary folder, PostgreSQL\.$/m,
    );
    await expectNothingLeft(stdout, ['worker-a', 'worker-b']);
  });
});

describe('pnpm demo:durable, usage', () => {
  it('--help prints the usage; a bad option is a usage error (exit 2) that starts nothing', async () => {
    const help = await startDemo(['--help']).exited;
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pnpm demo:durable -- \[--kill-while tool\|model\]/);
    const bad = await startDemo(['--kill-while', 'disk']).exited;
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('--kill-while must be tool or model; got "disk".\n');
    expect(bad.stdout).toBe('');
  });
});
