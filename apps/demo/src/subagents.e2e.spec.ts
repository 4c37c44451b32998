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
    const out = execFileSync(
      process.execPath,
      [mainJs, '--subagents', '--timeline', '--dir', dir, 'What is this?'],
      { env, encoding: 'utf8' },
    );
    const lines = out.split('\n');
    const call = lines.findIndex((l) => l.startsWith('→ subagent scout: Explore the folder'));
    const done = lines.findIndex((l) => l.startsWith('✓ subagent scout:'));
    expect(call).toBeGreaterThan(0);
    expect(done).toBeGreaterThan(call);
    const nested = lines.slice(call + 1, done);
    expect(nested[0]).toBe('  … scout started');
    expect(nested.some((l) => /^ {2}… scout · step 1 → list \. · [\d,]+ tokens$/.test(l))).toBe(true);
    expect(nested.some((l) => /^ {2}… scout · step 2 → read README\.md · [\d,]+ tokens$/.test(l))).toBe(true);
    const scoutDone = /^ {2}… scout done \(completed\) · 3 steps · ([\d,]+) tokens$/.exec(
      nested.at(-1) ?? '',
    );
    expect(scoutDone).not.toBeNull();
    expect(out).toContain('Here is what the scout found.');
    expect(out).toContain('This is kettle (from package.json): Tea timer.');

    // The summary counts the parent's calls and the scout's, and says which part is the scout's.
    const num = (text: string | undefined) => Number((text ?? '').replace(/,/g, ''));
    const summary =
      /^2 steps · tokens: [\d,]+ input, [\d,]+ output, ([\d,]+) total \(([\d,]+) by 1 sub-run\)/m.exec(out);
    expect(summary).not.toBeNull();
    const total = num(summary?.[1]);
    const scoutTokens = num(scoutDone?.[1]);
    expect(num(summary?.[2])).toBe(scoutTokens);
    expect(total).toBeGreaterThan(scoutTokens);

    // --timeline: the scout's lines nested under the call, and the same figures as the summary.
    const timeline = out.slice(out.indexOf('Timeline:'));
    expect(timeline).toMatch(/^ {10}└ subagent scout: .+ · ok · ([\d,]+) tokens by 1 sub-run$/m);
    expect(num(/└ subagent scout: .+ · ok · ([\d,]+) tokens by 1 sub-run$/m.exec(timeline)?.[1])).toBe(
      scoutTokens,
    );
    expect(timeline).toMatch(/^ {14}↳ scout +[\d.]+s \+.+ · done \(completed\) · 3 steps · [\d,]+ tokens$/m);
    expect(timeline).toMatch(/^ {16}step 3 {2}model /m);
    expect(timeline).toMatch(/^ {24}[└├] read README\.md /m);
    const own = timeline
      .split('\n')
      .filter((l) => /^ *step \d+ /.test(l))
      .map((l) => num(/([\d,]+) tokens/.exec(l)?.[1]));
    expect(own).toHaveLength(5); // the parent's 2 model calls, the scout's 3
    expect(own.reduce((a, b) => a + b, 0)).toBe(total);
    expect(timeline).toContain(`  total: 2 steps · ${total.toLocaleString('en-US')} tokens · `);
  });
});
