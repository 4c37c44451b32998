// End to end: the BUILT demo (apps/demo/dist/main.js) as a child process, with no API key in
// its environment. `pnpm test` builds everything first; run alone, this builds the demo (and
// what it depends on) when its dist is missing or older than its sources.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSseTestServer, type SseEvent, type SseTestServer } from '@rxagent/testing';

const repoRoot = resolve(__dirname, '../../..');
const mainJs = join(repoRoot, 'apps/demo/dist/main.js');
const dashboardJs = join(repoRoot, 'apps/dashboard/dist/index.js');

function needsBuild(): boolean {
  if (!existsSync(mainJs) || !existsSync(dashboardJs)) return true;
  const built = statSync(mainJs).mtimeMs;
  return readdirSync(__dirname).some(
    (f) => !f.endsWith('.spec.ts') && statSync(join(__dirname, f)).mtimeMs > built,
  );
}

/** The environment of the child: no keys, no provider settings, no pnpm INIT_CWD. */
function demoEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'OPENAI_BASE_URL',
    'ANTHROPIC_BASE_URL',
    'RXAGENT_PROVIDER',
    'RXAGENT_MODEL',
    'RXAGENT_DEMO_FAST',
    'INIT_CWD',
    'FORCE_COLOR',
  ]) {
    delete env[name];
  }
  return { ...env, ...extra };
}

interface Demo {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches. */
  waitFor(pattern: RegExp): Promise<void>;
  exited: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function startDemo(args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): Demo {
  const child = spawn(process.execPath, [mainJs, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: demoEnv(options.env),
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
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolveExit) =>
    child.on('close', (code) => resolveExit({ code, stdout: out, stderr: err })),
  );
  return {
    child,
    stdout: () => out,
    stderr: () => err,
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
}

const FAST = { RXAGENT_DEMO_FAST: '1' };
const SUMMARY = /^\d+ steps? · tokens: [\d,]+ input, [\d,]+ output, [\d,]+ total · [\d.]+ m?s$/m;

/** One `chat.completion.chunk` of the OpenAI streaming format. */
function chunk(delta: Record<string, unknown>, finishReason: string | null = null): SseEvent {
  return {
    data: {
      id: 'chatcmpl-e2e',
      object: 'chat.completion.chunk',
      created: 1767225600,
      model: 'local-model',
      choices: [{ index: 0, delta, finish_reason: finishReason }],
    },
  };
}

function usageChunk(prompt: number, completion: number): SseEvent {
  return {
    data: {
      id: 'chatcmpl-e2e',
      object: 'chat.completion.chunk',
      created: 1767225600,
      model: 'local-model',
      choices: [],
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    },
  };
}

jest.setTimeout(60_000);

beforeAll(() => {
  if (needsBuild()) {
    execFileSync('pnpm', ['--filter', '@rxagent/demo...', 'run', 'build'], { cwd: repoRoot, stdio: 'pipe' });
  }
}, 300_000);

describe('the demo, offline (no key)', () => {
  it('answers about this repository: first line says offline, tool lines, the answer, the summary', async () => {
    const { code, stdout, stderr } = await startDemo([], { env: FAST }).exited;
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(
      'No OPENAI_API_KEY or ANTHROPIC_API_KEY: using the built-in scripted model (offline).',
    );
    expect(lines).toContain(`Folder: ${repoRoot}`);
    expect(lines).toContain('Question: What is this project and how is it organised?');
    expect(lines).toContain('→ list .');
    expect(lines).toContainEqual(expect.stringMatching(/^✓ list \. \(\d+ entries\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^✓ read README\.md \(\d+ lines\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^✓ read package\.json \(\d+ lines\)$/));
    expect(stdout).toContain('This is rxagent-monorepo (from package.json)');
    expect(stdout).toMatch(SUMMARY);
    expect(stdout).not.toContain('\x1b'); // not a TTY: no spinner, no colours
  });

  it('--dir and a question: answers about that folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxagent-demo-e2e-'));
    try {
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ name: 'e2e-widget', description: 'Tested end to end.' }),
      );
      const { code, stdout } = await startDemo(['Who made this?', '--dir', dir], { env: FAST }).exited;
      expect(code).toBe(0);
      expect(stdout).toContain(`Folder: ${dir}`);
      expect(stdout).toContain('Question: Who made this?');
      expect(stdout).toContain('This is e2e-widget (from package.json): Tested end to end.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--json: stdout is JSON lines only, ending with agent-end; the notice goes to stderr', async () => {
    const { code, stdout, stderr } = await startDemo(['--json'], { env: FAST }).exited;
    expect(code).toBe(0);
    expect(stderr.split('\n')[0]).toMatch(/using the built-in scripted model \(offline\)/);
    const lines = stdout.trimEnd().split('\n');
    const events = lines.map((line) => JSON.parse(line) as { type: string; reason?: string });
    expect(events[0]?.type).toBe('agent-start');
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
    expect(events.filter((e) => e.type === 'tool-end').length).toBeGreaterThanOrEqual(3);
  });

  it('Ctrl-C while it streams: aborted, "Aborted.", exit code 130, no stack trace', async () => {
    const demo = startDemo([]); // real pacing, so there is time to interrupt
    await demo.waitFor(/→ list \./);
    demo.child.kill('SIGINT');
    const { code, stdout, stderr } = await demo.exited;
    expect(code).toBe(130);
    expect(stdout).toMatch(/^Aborted\.$/m);
    expect(stdout).toMatch(SUMMARY);
    expect(stdout).not.toContain('built-in scripted model: it always lists'); // the answer never came
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).not.toContain('Error:');
  });

  it('--help prints the usage; a bad option is a usage error (exit 2)', async () => {
    const help = await startDemo(['--help']).exited;
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: pnpm demo -- \[question\] \[options\]/);
    const bad = await startDemo(['--provider', 'gemini']).exited;
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--provider must be one of openai, anthropic, scripted; got "gemini".');
    expect(bad.stdout).toBe('');
  });

  it('a folder that does not exist: one line, exit 1', async () => {
    const { code, stderr } = await startDemo(['--dir', '/no/such/folder'], { env: FAST }).exited;
    expect(code).toBe(1);
    expect(stderr).toBe('Folder not found: /no/such/folder (give an existing folder with --dir).\n');
  });
});

describe('the demo with --provider openai --base-url (a local OpenAI-compatible server)', () => {
  let server: SseTestServer;
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rxagent-demo-openai-'));
    writeFileSync(join(dir, 'hello.txt'), 'hi\n');
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  afterEach(async () => {
    await server.close();
  });

  it('streams the model: its tool call runs on the folder, then its text is printed', async () => {
    server = await startSseTestServer((_request, index) =>
      index === 0
        ? {
            events: [
              chunk({ role: 'assistant', content: null }),
              chunk({
                tool_calls: [
                  { index: 0, id: 'call_1', type: 'function', function: { name: 'list', arguments: '' } },
                ],
              }),
              chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":"."}' } }] }),
              chunk({}, 'tool_calls'),
              usageChunk(120, 10),
              { data: '[DONE]' },
            ],
          }
        : {
            events: [
              chunk({ role: 'assistant', content: '' }),
              chunk({ content: 'The folder holds ' }),
              chunk({ content: 'one file: hello.txt.' }),
              chunk({}, 'stop'),
              usageChunk(200, 8),
              { data: '[DONE]' },
            ],
          },
    );
    const baseUrl = `${server.url}/v1`;
    const { code, stdout, stderr } = await startDemo([
      'What is here?',
      '--provider',
      'openai',
      '--base-url',
      baseUrl,
      '--model',
      'local-model',
      '--dir',
      dir,
    ]).exited;

    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(`Using openai local-model at ${baseUrl} (no key).`);
    expect(lines).toContain('→ list .');
    expect(lines).toContain('✓ list . (1 entry)');
    expect(lines).toContain('The folder holds one file: hello.txt.');
    expect(stdout).toMatch(/^2 steps · tokens: 320 input, 18 output, 338 total · /m);

    expect(server.requests).toHaveLength(2);
    const first = server.requests[0]!;
    expect(first.path).toBe('/v1/chat/completions');
    expect(first.headers.authorization).toBe('Bearer no-key-needed');
    const body = first.body as {
      model: string;
      messages: { role: string; content: unknown }[];
      tools: { function: { name: string } }[];
    };
    expect(body.model).toBe('local-model');
    expect(body.messages.at(-1)).toMatchObject({ role: 'user', content: 'What is here?' });
    expect(body.tools.map((t) => t.function.name).sort()).toEqual(['grep', 'list', 'read']);
    const second = server.requests[1]!.body as { messages: { role: string; content: unknown }[] };
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool', content: 'hello.txt' });
  });

  it('a rejected key: one line with the typed error, never the key, exit 1', async () => {
    const key = 'sk-e2e-secret-0123456789';
    server = await startSseTestServer(() => ({
      status: 401,
      json: {
        error: {
          message: `Incorrect API key provided: ${key}. You can find your API key at https://platform.openai.com.`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      },
    }));
    const { code, stdout, stderr } = await startDemo(['--base-url', `${server.url}/v1`, '--dir', dir], {
      env: { OPENAI_API_KEY: key },
    }).exited;
    expect(code).toBe(1);
    expect(stdout.split('\n')[0]).toBe(`Using openai gpt-4o-mini at ${server.url}/v1 (OPENAI_API_KEY).`);
    expect(stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^AuthError: /)]);
    expect(stdout + stderr).not.toContain(key);
    expect(server.requests).toHaveLength(1); // not retried
  });
});

describe('the demo with --dashboard', () => {
  it('prints the dashboard URL, serves it after the run, and closes on Ctrl-C', async () => {
    const demo = startDemo(['--dashboard'], { env: FAST });
    await demo.waitFor(/stays open at (http:\/\/127\.0\.0\.1:\d+\/)/);
    const url = /^Dashboard: (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(demo.stdout())?.[1];
    expect(url).toBeDefined();
    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    demo.child.kill('SIGINT');
    const { code, stdout } = await demo.exited;
    expect(code).toBe(0);
    expect(stdout).toMatch(SUMMARY);
  });
});
