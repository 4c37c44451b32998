// End to end: the BUILT demo with `--mcp`, starting server-everything (from @rxagent/mcp's dev
// dependencies) over stdio, with a local OpenAI-compatible server scripting the model.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSseTestServer, type SseEvent, type SseTestServer } from '@rxagent/testing';

const repoRoot = resolve(__dirname, '../../..');
const mainJs = join(repoRoot, 'apps/demo/dist/main.js');
const everything = join(
  repoRoot,
  'packages/mcp/node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

function runDemo(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '', RXAGENT_DEMO_FAST: '1' };
  const child = spawn(process.execPath, [mainJs, ...args], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

function chunk(delta: Record<string, unknown>, finishReason: string | null = null): SseEvent {
  return {
    data: {
      id: 'chatcmpl-mcp',
      object: 'chat.completion.chunk',
      created: 1767225600,
      model: 'local-model',
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    },
  };
}

jest.setTimeout(60_000);

describe('the demo with --mcp', () => {
  let server: SseTestServer | undefined;
  let dir: string;
  beforeAll(() => {
    if (!existsSync(mainJs)) {
      execFileSync('pnpm', ['--filter', '@rxagent/demo...', 'run', 'build'], {
        cwd: repoRoot,
        stdio: 'pipe',
      });
    }
    dir = mkdtempSync(join(tmpdir(), 'rxagent-demo-mcp-'));
    writeFileSync(join(dir, 'hello.txt'), 'hi\n');
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  afterEach(() => server?.close());

  it('offers the MCP server tools next to its own and runs the one the model calls', async () => {
    server = await startSseTestServer((_request, index) => ({
      events:
        index === 0
          ? [
              chunk({ role: 'assistant', content: null }),
              chunk({
                tool_calls: [
                  {
                    index: 0,
                    id: 'call_1',
                    type: 'function',
                    function: { name: 'server-everything_echo', arguments: '{"message":"from the demo"}' },
                  },
                ],
              }),
              chunk({}, 'tool_calls'),
              { data: '[DONE]' },
            ]
          : [chunk({ role: 'assistant', content: 'It echoed.' }), chunk({}, 'stop'), { data: '[DONE]' }],
    }));
    const { code, stdout, stderr } = await runDemo([
      'Echo something',
      '--provider',
      'openai',
      '--base-url',
      `${server.url}/v1`,
      '--model',
      'local-model',
      '--dir',
      dir,
      '--mcp',
      `"${process.execPath}" "${everything}" stdio`,
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^MCP tools: .*server-everything_echo/m);
    expect(stdout).toContain('It echoed.');
    const tools = (server.requests[0]?.body as { tools: { function: { name: string } }[] }).tools.map(
      (t) => t.function.name,
    );
    expect(tools).toEqual(
      expect.arrayContaining(['list', 'read', 'grep', 'server-everything_echo', 'server-everything_get-sum']),
    );
    const second = server.requests[1]?.body as { messages: { role: string; content: unknown }[] };
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Echo: from the demo' });
  });

  it('offline, the scripted plan calls one of the MCP tools and reports its answer', async () => {
    const { code, stdout, stderr } = await runDemo([
      'What is here?',
      '--dir',
      dir,
      '--mcp',
      `${process.execPath} ${everything} stdio`,
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('→ server-everything_echo {"message":"What is here?"}');
    expect(stdout).toMatch(/^✓ server-everything_echo .*\(1 line\)$/m);
    expect(stdout).toMatch(/^server-everything_echo answered: Echo: What is here\?$/m);
  });

  it('a server that cannot start: one line naming it, exit 1', async () => {
    const { code, stdout, stderr } = await runDemo(['--dir', dir, '--mcp', '/no/such/mcp-server --flag']);
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^Could not connect to the MCP server "mcp-server": failed to start "\/no\/such\/mcp-server"/,
      ),
    ]);
    expect(stdout).not.toContain('MCP tools');
  });
});
