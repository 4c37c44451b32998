// End to end: the BUILT demo with --context-window, offline (no key). Builds the demo when its
// dist is missing or older than its sources (like main.e2e.spec.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '../../..');
const mainJs = join(repoRoot, 'apps/demo/dist/main.js');

function needsBuild(): boolean {
  if (!existsSync(mainJs)) return true;
  const built = statSync(mainJs).mtimeMs;
  return readdirSync(__dirname).some(
    (f) => !f.endsWith('.spec.ts') && statSync(join(__dirname, f)).mtimeMs > built,
  );
}

function runDemo(args: string[]): string {
  const env: NodeJS.ProcessEnv = { ...process.env, RXAGENT_DEMO_FAST: '1' };
  for (const name of [
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'RXAGENT_PROVIDER',
    'RXAGENT_MODEL',
    'INIT_CWD',
    'FORCE_COLOR',
  ]) {
    delete env[name];
  }
  return execFileSync(process.execPath, [mainJs, ...args], {
    cwd: repoRoot,
    env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
}

jest.setTimeout(60_000);

beforeAll(() => {
  if (needsBuild()) {
    execFileSync('pnpm', ['--filter', '@rxagent/demo...', 'run', 'build'], { cwd: repoRoot, stdio: 'pipe' });
  }
}, 300_000);

describe('the demo with --context-window 8000 (offline)', () => {
  it('prints a compaction line: the summary checkpoint and the tokens before and after', () => {
    const stdout = runDemo(['--context-window', '8000']);
    const line =
      /^… context compacted \(summary checkpoint, (\d+) messages summarized.*\): (\d+) → (\d+) tokens · the summary call: [\d,]+ tokens$/m.exec(
        stdout,
      );
    expect(line).not.toBeNull();
    const [, summarized, before, after] = (line as RegExpExecArray).map(Number);
    expect(summarized).toBeGreaterThan(0);
    expect(after).toBeLessThan(8_000);
    expect(after).toBeLessThan(before as number);
    expect(stdout).toMatch(/^\d+ steps · tokens: /m);
  });

  it('ends with an answer made of what the compacted context holds, not a clipped file', () => {
    const stdout = runDemo(['--context-window', '8000']);
    const answer = stdout.slice(stdout.indexOf('… context compacted'));
    expect(answer).not.toContain('I could not list the folder.');
    expect(answer).toMatch(/the summary checkpoint keeps what I did first \(list \., read README\.md, /);
    // Every README read after the first steps, by its title and first sentence.
    expect(answer).toMatch(/^ {2}packages\/core\/ "@rxagent\/core" — The agent loop of rxagent/m);
    expect(answer).toMatch(/^ {2}apps\/sse-example\/ "@rxagent\/sse-example" — /m);
  });

  it('--json: the summary streams as summary-start / summary-update, then the compaction with its usage', () => {
    const events = runDemo(['--context-window', '8000', '--json'])
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; usage?: { inputTokens: number } });
    const types = events.map((e) => e.type);
    expect(types.indexOf('summary-start')).toBeGreaterThan(0);
    expect(types.indexOf('summary-update')).toBeGreaterThan(types.indexOf('summary-start'));
    const compaction = events.find((e) => e.type === 'compaction');
    expect(compaction?.usage?.inputTokens).toBeGreaterThan(0);
    // One before each model call, and one before each summary: the size about to be sent.
    expect(types.filter((t) => t === 'context-usage').length).toBe(
      types.filter((t) => t === 'turn-start').length + types.filter((t) => t === 'summary-start').length,
    );
    expect(types[types.indexOf('summary-start') - 1]).toBe('context-usage');
  });

  it('without the flag, nothing is compacted', () => {
    expect(runDemo([])).not.toContain('context compacted');
  });
});
