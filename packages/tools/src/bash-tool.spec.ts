import { readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { bashTool, type BashProgress, type BashResult, type BashToolOptions } from './bash-tool.js';
import { MAX_PROGRESS_BYTES, MAX_PROGRESS_EVENT_BYTES, PROGRESS_TRUNCATED_NOTE } from './bash-progress.js';
import { CommandKilledError } from './tool-errors.js';
import { execute, type TempRoot, tempRoot, toolContext } from './test-helpers.test.js';

/** Alive and not a zombie (a killed child of PID 1 may linger as one in containers). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function waitUntilGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && isRunning(pid); i++) await new Promise((r) => setTimeout(r, 20));
  return !isRunning(pid);
}

// Killed orphans can stay zombies for a while where PID 1 reaps slowly (containers): the tool
// then polls their group until the grace ends. A short grace keeps jest from waiting on it.
const quickGrace = 200;

const pidsIn = (text: string) => [...text.matchAll(/^pid (\d+)$/gm)].map((m) => Number(m[1]));

describe('bash', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await tempRoot();
  });
  afterEach(() => t.cleanup());
  const bash = (options: Partial<BashToolOptions> = {}) => bashTool({ root: t.root, ...options });
  // Without `background`, a call gives a finished command's result.
  const run = (command: string, options: Partial<BashToolOptions> = {}, ctx = toolContext()) =>
    execute(bash(options), { command }, ctx) as Promise<BashResult>;
  const modelText = (result: BashResult) => bash().toModelOutput?.(result);

  it('returns stdout and stderr with the exit code, run in the root', async () => {
    const result = await run('pwd; echo oops >&2');
    expect(result.exitCode).toBe(0);
    expect(result.output.split('\n').sort()).toEqual([t.root, 'oops'].sort());
    expect(modelText(result)).toMatch(/\n\n\[exit code 0\]$/);
  });

  it('reports a non-zero exit code and stderr as a result, not an error', async () => {
    const result = await run('echo "no such thing" >&2; exit 3');
    expect(result).toMatchObject({ exitCode: 3, output: 'no such thing', truncated: false });
    expect(modelText(result)).toBe('no such thing\n\n[exit code 3]');
    expect(modelText(await run('true'))).toBe('(no output)\n\n[exit code 0]');
  });

  it('passes env on top of the process environment, and gives commands no stdin', async () => {
    const result = await run('echo "$GREETING $HOME"; cat; echo done', { env: { GREETING: 'hi' } });
    expect(result.output).toBe(`hi ${process.env.HOME ?? ''}\ndone`);
  });

  it('keeps the last 2,000 lines of long output with a note', async () => {
    const result = await run('seq 1 5000');
    const lines = result.output.split('\n');
    expect(lines).toHaveLength(2000);
    expect(lines[0]).toBe('3001');
    expect(lines[1999]).toBe('5000');
    expect(result).toMatchObject({ truncated: true, totalLines: 5000 });
    expect(modelText(result)).toMatch(
      /^\[Output truncated: showing the end of 5000 lines \(23\.\d KB\)\. Redirect/,
    );
  });

  it('keeps at most the last 50 KB, whole lines', async () => {
    const result = await run("for i in $(seq 1 1500); do printf '%099d\\n' $i; done");
    expect(Buffer.byteLength(result.output)).toBeLessThanOrEqual(50 * 1024);
    const lines = result.output.split('\n');
    expect(lines.every((l) => l.length === 99)).toBe(true);
    expect(Number(lines[lines.length - 1])).toBe(1500);
    expect(result.truncated).toBe(true);
  });

  it('kills the command and its child processes on timeout', async () => {
    const command = 'sleep 30 & echo "pid $!"; sleep 30 & echo "pid $!"; wait';
    const error = await run(command, { timeoutMs: 400, killGraceMs: quickGrace }).catch((e: unknown) => e);
    expect(CommandKilledError.isInstance(error)).toBe(true);
    expect((error as CommandKilledError).reason).toBe('timeout');
    expect((error as Error).message).toMatch(/^Command timed out after 400 ms and was killed/);
    const pids = pidsIn((error as CommandKilledError).output);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(await waitUntilGone(pid)).toBe(true);
  });

  it('caps a call timeoutMs at maxTimeoutMs, and lets a call ask for less', async () => {
    await expect(
      execute(bash({ timeoutMs: 300 }), { command: 'sleep 5', timeoutMs: 60_000 }, toolContext()),
    ).rejects.toThrow(/timed out after 300 ms .*at most 300\)/s);
    await expect(
      execute(bash({ timeoutMs: 60_000 }), { command: 'sleep 5', timeoutMs: 300 }, toolContext()),
    ).rejects.toThrow(/timed out after 300 ms/);
  });

  it('kills the process group when the call is aborted, reporting output as progress', async () => {
    const controller = new AbortController();
    const ctx = toolContext({ signal: controller.signal });
    ctx.progress = (p: unknown) => {
      ctx.progressed.push(p);
      if ((p as BashProgress).text.includes('started')) controller.abort();
    };
    const command = 'sleep 30 & echo "pid $!"; echo started; wait';
    const error = await run(command, { killGraceMs: quickGrace }, ctx).catch((e: unknown) => e);
    expect((error as CommandKilledError).reason).toBe('aborted');
    expect((error as Error).message).toMatch(/^Command was cancelled and killed/);
    const [pid] = pidsIn((ctx.progressed as BashProgress[]).map((p) => p.text).join(''));
    expect(pid).toBeGreaterThan(0);
    expect(await waitUntilGone(pid as number)).toBe(true);
  });

  it('does not start when the call is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(run('touch ran.txt', {}, toolContext({ signal: controller.signal }))).rejects.toThrow(
      /cancelled/,
    );
    await expect(access(path.join(t.root, 'ran.txt'))).rejects.toThrow();
  });

  it('streams output through ctx.progress while the command runs', async () => {
    const ctx = toolContext();
    await run('echo one; sleep 0.3; echo two', { progressIntervalMs: 20 }, ctx);
    expect(ctx.progressed).toEqual([
      { kind: 'output', text: 'one\n' },
      { kind: 'output', text: 'two\n' },
    ]);
  });

  it('kills background processes the command leaves behind', async () => {
    const result = await run('sleep 30 >/dev/null 2>&1 & echo "pid $!"', { killGraceMs: quickGrace });
    expect(result.exitCode).toBe(0);
    const [pid] = pidsIn(result.output);
    expect(await waitUntilGone(pid as number)).toBe(true);
  });

  it('does not pass secret-looking variables of process.env unless listed in passEnv', async () => {
    const saved = { key: process.env.OPENAI_API_KEY, token: process.env.RXAGENT_TEST_TOKEN };
    process.env.OPENAI_API_KEY = 'sk-test-not-for-commands';
    process.env.RXAGENT_TEST_TOKEN = 'token-test';
    try {
      const names = (output: string) => output.split('\n').map((line) => line.split('=')[0]);
      const plain = names((await run('env')).output);
      expect(plain).not.toContain('OPENAI_API_KEY');
      expect(plain).not.toContain('RXAGENT_TEST_TOKEN');
      expect(plain).toContain('PATH');
      const passed = await run('env', { passEnv: ['OPENAI_API_KEY'], env: { GIVEN_TOKEN: 'given' } });
      expect(passed.output.split('\n')).toEqual(
        expect.arrayContaining(['OPENAI_API_KEY=sk-test-not-for-commands', 'GIVEN_TOKEN=given']),
      );
      expect(names(passed.output)).not.toContain('RXAGENT_TEST_TOKEN');
    } finally {
      for (const [name, value] of [
        ['OPENAI_API_KEY', saved.key],
        ['RXAGENT_TEST_TOKEN', saved.token],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('treats a timeoutMs of Infinity or from 2^31 ms on as no timeout', async () => {
    for (const timeoutMs of [Infinity, 2 ** 31, 2 ** 40]) {
      const tool = bash({ timeoutMs });
      const result = await execute(tool, { command: 'sleep 0.2; echo done' }, toolContext());
      expect(result).toMatchObject({ exitCode: 0, output: 'done' });
      expect(tool.timeoutMs).toBe(Infinity);
      expect(tool.description).toContain('No timeout.');
    }
    // A call may still ask for a timeout of its own.
    await expect(
      execute(bash({ timeoutMs: Infinity }), { command: 'sleep 5', timeoutMs: 300 }, toolContext()),
    ).rejects.toThrow(/^Command timed out after 300 ms .*Pass a larger timeoutMs, or/s);
  });

  it('bounds progress per event and in total, then notes once that it was truncated', async () => {
    const ctx = toolContext();
    const result = await run("head -c 200000 /dev/zero | tr '\\0' a; echo; echo é-end", {}, ctx);
    expect(result.totalBytes).toBe(200000 + 1 + 7);
    expect(result.output.endsWith('é-end')).toBe(true);
    const events = ctx.progressed as BashProgress[];
    const notes = events.filter((p) => p.truncated === true);
    expect(notes).toEqual([{ kind: 'output', text: PROGRESS_TRUNCATED_NOTE, truncated: true }]);
    expect(events[events.length - 1]).toBe(notes[0]);
    const output = events.filter((p) => p.truncated !== true);
    for (const p of output) expect(Buffer.byteLength(p.text)).toBeLessThanOrEqual(MAX_PROGRESS_EVENT_BYTES);
    expect(output.reduce((n, p) => n + Buffer.byteLength(p.text), 0)).toBe(MAX_PROGRESS_BYTES);
  });

  it('does not cut a character in two between progress events', async () => {
    const ctx = toolContext();
    await run("for i in $(seq 1 3000); do printf 'é'; done", {}, ctx);
    const texts = (ctx.progressed as BashProgress[]).map((p) => p.text);
    expect(texts.length).toBeGreaterThan(1);
    expect(texts.join('')).toBe('é'.repeat(3000));
  });

  it('needs approval by default, cancels on interrupt, runs alone', () => {
    expect(bash()).toMatchObject({
      name: 'bash',
      needsApproval: true,
      interrupt: 'cancel',
      concurrencySafe: false,
    });
    expect(bash({ needsApproval: false }).needsApproval).toBe(false);
    // Outlives its own timeout plus the kill grace, so the run's timeout never cuts in first.
    expect(bash({ timeoutMs: 1000, maxTimeoutMs: 5000 }).timeoutMs).toBeGreaterThan(5000 + 2000);
  });
});
