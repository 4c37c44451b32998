// End to end: the BUILT demo with --record, --replay and --fork-at, offline (no key), on a small
// folder. Run alone, this builds the demo when its dist is missing or older than its sources.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { diffRuns, readRunLogFile } from '@rxagent/replay';

const repoRoot = resolve(__dirname, '../../..');
const mainJs = join(repoRoot, 'apps/demo/dist/main.js');

function needsBuild(): boolean {
  if (!existsSync(mainJs)) return true;
  const built = statSync(mainJs).mtimeMs;
  return readdirSync(__dirname).some(
    (f) => !f.endsWith('.spec.ts') && statSync(join(__dirname, f)).mtimeMs > built,
  );
}

function demo(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, RXAGENT_DEMO_FAST: '1' };
  for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'RXAGENT_PROVIDER', 'RXAGENT_MODEL', 'INIT_CWD'])
    delete env[name];
  return new Promise((resolveRun) => {
    execFile(process.execPath, [mainJs, ...args], { env, cwd: repoRoot }, (error, stdout, stderr) =>
      resolveRun({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

jest.setTimeout(60_000);

let dir: string;
let folder: string;
beforeAll(() => {
  if (needsBuild())
    execFileSync('pnpm', ['--filter', '@rxagent/demo...', 'run', 'build'], { cwd: repoRoot, stdio: 'pipe' });
}, 300_000);
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'rxagent-demo-replay-'));
  folder = join(dir, 'project');
  mkdirSync(folder);
  writeFileSync(join(folder, 'README.md'), '# Tiny\n\nA tiny project.\n');
  writeFileSync(join(folder, 'package.json'), '{ "name": "tiny", "version": "1.0.0" }\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the demo with --record, --replay and --fork-at', () => {
  it('records a run, replays it, and forks it at a step with a tool result edited', async () => {
    const run = join(dir, 'run.jsonl');
    const recorded = await demo(['--dir', folder, '--record', run, 'What is this?']);
    expect(recorded.code).toBe(0);
    expect(recorded.stdout).toContain(`Recording the run to ${run}.`);
    const log = readRunLogFile(run);
    expect(log.header.recorded).toBe('full');
    expect(log.end).toEqual({ outcome: 'completed' });

    const replayed = await demo(['--dir', folder, '--replay', run, 'What is this?']);
    expect(replayed.code).toBe(0);
    expect(replayed.stdout).toContain(
      `Replaying ${run} (run ${log.header.runId}): no model call, no tool run.`,
    );
    // The same run on the screen: its tool lines and its answer.
    const shown = (out: string) => out.split('\n').filter((l) => /^[→✓]/.test(l) || l.includes('tiny'));
    expect(shown(recorded.stdout).length).toBeGreaterThan(3);
    expect(shown(replayed.stdout)).toEqual(shown(recorded.stdout));

    const listing = log.events.find((e) => e.event.type === 'tool-end');
    const id = listing?.event.type === 'tool-end' ? listing.event.toolCallId : '';
    const fork = join(dir, 'fork.jsonl');
    const forked = await demo([
      '--dir',
      folder,
      '--replay',
      run,
      '--fork-at',
      '1',
      '--edit-result',
      `${id}=README.md`,
      '--record',
      fork,
    ]);
    expect(forked.stderr).toBe('');
    expect(forked.code).toBe(0);
    expect(forked.stdout).toContain(`at the end of step 1, with ${id}'s result replaced: live from here.`);
    const forkLog = readRunLogFile(fork);
    expect(forkLog.header.lineage).toMatchObject({
      parentRunId: log.header.runId,
      forkedAt: { step: 1 },
      edit: 'tool-result',
    });
    const diff = diffRuns(log, forkLog);
    expect(diff.transcript[0]).toMatchObject({
      change: 'changed',
      b: { toolCallId: id, content: [{ text: 'README.md' }] },
    });
    expect(diff.firstDifferentRequest).toMatchObject({ callA: 1, callB: 0, part: 'messages' });
  });

  it('refuses --fork-at without --replay, and --edit-result without --fork-at (exit 2)', async () => {
    const noLog = await demo(['--fork-at', '2']);
    expect(noLog.code).toBe(2);
    expect(noLog.stderr).toContain('--fork-at forks a recorded run: give its log with --replay <file>.');
    const noFork = await demo(['--replay', 'x.jsonl', '--edit-result', 'c1=ok']);
    expect(noFork.code).toBe(2);
    expect(noFork.stderr).toContain('--edit-result is the edit of a fork: give --fork-at <step> too.');
  });
});
