// End to end: the BUILT demo with --timeline and --trace otlp=<url>, exporting its spans to a
// local OTLP/HTTP receiver in this test, which decodes what it gets.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '../../..');
const mainJs = join(repoRoot, 'apps/demo/dist/main.js');
const otelJs = join(repoRoot, 'packages/otel/dist/index.js');

function needsBuild(): boolean {
  if (!existsSync(mainJs) || !existsSync(otelJs)) return true;
  const built = statSync(mainJs).mtimeMs;
  return readdirSync(__dirname).some(
    (f) => !f.endsWith('.spec.ts') && statSync(join(__dirname, f)).mtimeMs > built,
  );
}

interface OtlpSpan {
  spanId: string;
  parentSpanId?: string;
  name: string;
}

jest.setTimeout(60_000);

beforeAll(() => {
  if (needsBuild()) {
    execFileSync('pnpm', ['--filter', '@rxagent/demo...', 'run', 'build'], { cwd: repoRoot, stdio: 'pipe' });
  }
}, 300_000);

describe('the demo with --timeline and --trace otlp=<url>', () => {
  it('prints a per-step summary and exports the run as spans', async () => {
    const spans: OtlpSpan[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
        };
        spans.push(...body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`;
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, RXAGENT_DEMO_FAST: '1' };
      for (const name of [
        'OPENAI_API_KEY',
        'ANTHROPIC_API_KEY',
        'RXAGENT_PROVIDER',
        'RXAGENT_MODEL',
        'INIT_CWD',
      ])
        delete env[name];
      const child = spawn(process.execPath, [mainJs, '--timeline', '--trace', `otlp=${url}`], {
        cwd: repoRoot,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const code = await new Promise<number | null>((r) => child.on('close', r));
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const timeline = stdout.slice(stdout.indexOf('Timeline:'));
      expect(timeline).toMatch(
        /^ {2}step 1 {2}model +0\.\d\ds \+[\d.]+ m?s · first token [\d.]+ m?s · [\d,]+ tokens$/m,
      );
      // Each tool call with a short argument (which file it read), the times in one column.
      expect(timeline).toMatch(/^ {10}[├└] list \. +\d+\.\d\ds \+[\d.]+ m?s · ok$/m);
      expect(timeline).toMatch(/^ {10}[├└] read README\.md +\d+\.\d\ds \+[\d.]+ m?s · ok$/m);
      expect(timeline).toMatch(/^ {10}[├└] read package\.json +\d+\.\d\ds \+[\d.]+ m?s · ok$/m);
      const timed = timeline.split('\n').filter((line) => / \d+\.\d\ds /.test(line));
      expect(timed.length).toBeGreaterThan(4);
      expect(new Set(timed.map((line) => line.search(/ \d+\.\d\ds /))).size).toBe(1);
      // The timeline's total is the summary's.
      const total = /^\d+ steps · tokens: .* ([\d,]+) total/m.exec(stdout)?.[1];
      expect(timeline).toMatch(new RegExp(`^  total: \\d+ steps · ${total} tokens$`, 'm'));
      expect(stdout).toContain(`Spans sent over OTLP/HTTP to ${url}`);
    } finally {
      server.close();
    }
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const parent = (s: OtlpSpan) => (s.parentSpanId ? byId.get(s.parentSpanId)?.name : undefined);
    expect(spans.filter((s) => s.name === 'invoke_agent rxagent-demo')).toHaveLength(1);
    const chats = spans.filter((s) => s.name.startsWith('chat '));
    expect(chats.length).toBeGreaterThan(1);
    expect(chats.every((s) => parent(s) === 'invoke_agent rxagent-demo')).toBe(true);
    const tools = spans.filter((s) => s.name.startsWith('execute_tool '));
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((s) => parent(s)?.startsWith('chat '))).toBe(true);
  });
});
