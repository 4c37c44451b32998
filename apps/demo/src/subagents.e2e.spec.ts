// End to end: `pnpm demo -- --subagents` as the built demo in a child process, offline (no
// key): the parent sends a scout sub-agent, whose work shows nested under the call, and
// answers from its report about a real folder.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '../../..');
const mainJs = join(repoRoot, 'apps/demo/dist/main.js');

jest.setTimeout(120_000);

beforeAll(() => {
  const stale =
    !existsSync(mainJs) ||
    readdirSync(__dirname).some(
      (f) => !f.endsWith('.spec.ts') && statSync(join(__dirname, f)).mtimeMs > statSync(mainJs).mtimeMs,
    );
  if (stale)
    execFileSync('pnpm', ['--filter', '@rxagent/demo...', 'run', 'build'], { cwd: repoRoot, stdio: 'pipe' });
});

describe('pnpm demo -- --subagents (offline)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxagent-subagents-demo-'));
    writeFileSync(join(dir, 'README.md'), '# Kettle\n\nA tiny tea timer.\n\n## Usage\n\nRun it.\n');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'kettle', description: 'Tea timer' }));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('answers with a scout sub-agent and shows its work under the subagent call', () => {
    const env: NodeJS.ProcessEnv = { ...process.env, RXAGENT_DEMO_FAST: '1' };
    for (const name of [
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'RXAGENT_PROVIDER',
      'RXAGENT_MODEL',
      'INIT_CWD',
    ])
      delete env[name];
    const out = execFileSync(process.execPath, [mainJs, '--subagents', '--dir', dir, 'What is this?'], {
      env,
      encoding: 'utf8',
    });
    const lines = out.split('\n');
    const call = lines.findIndex((l) => l.startsWith('→ subagent {"agent":"scout"'));
    const done = lines.findIndex((l) => l.startsWith('✓ subagent'));
    expect(call).toBeGreaterThan(0);
    expect(done).toBeGreaterThan(call);
    const nested = lines.slice(call + 1, done);
    expect(nested.some((l) => /^ {2}… scout · step 1 · scout → list \{"path":"\."\}/.test(l))).toBe(true);
    expect(nested.some((l) => /^ {2}… scout · step 2 · scout → read \{"path":"README\.md"\}/.test(l))).toBe(
      true,
    );
    expect(nested.at(-1)).toMatch(/^ {2}… scout · step 3 · scout done \(completed, 3 steps, \d+ tokens\)$/);
    expect(out).toContain('Here is what the scout found.');
    expect(out).toContain('This is kettle (from package.json): Tea timer.');
    // The scout's tokens count in the run's total.
    const total = Number(/(\d[\d,]*) total/.exec(out)?.[1]?.replace(/,/g, ''));
    expect(total).toBeGreaterThan(100);
  });
});
