// The official MCP conformance suite against @rxagent/mcp: every client scenario, each run by
// the suite's own runner (its servers, its checks) with `conformance-client.mjs` — a program
// that uses @rxagent/mcp's public API only — as the client. It imports the BUILT packages.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const repoRoot = resolve(__dirname, '../../../..');
const modules = resolve(__dirname, '../../node_modules');
const client = join(__dirname, 'conformance-client.mjs');
const stub = join(__dirname, 'node20-glob-stub.mjs');
/** The newest release that runs on Node 20 as published. */
const SUITE = { cli: join(modules, '@modelcontextprotocol/conformance/dist/index.js'), node: [] as string[] };
/**
 * The latest release (0.1.16) adds offline access and cross-app access; it imports
 * `fs.globSync` (Node 22) for a command clients never use, so it is loaded with a stub of it.
 */
const LATEST = { cli: join(modules, 'conformance-0.1.16/dist/index.js'), node: ['--import', stub] };

/** Scenarios not passed, with why (the README lists the same): none. */
const KNOWN_FAILURES: Record<string, string> = {};

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  description?: string;
  errorMessage?: string;
}

function listScenarios(suite: typeof SUITE): string[] {
  const out = execFileSync(process.execPath, [...suite.node, suite.cli, 'list', '--client'], {
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter((line) => line.startsWith('  - '))
    .map((line) => line.slice(4).split(' ')[0] as string);
}

const base = listScenarios(SUITE);
const added = listScenarios(LATEST).filter((name) => !base.includes(name));

/** Runs one scenario with the suite's runner; resolves with its checks and the client's output. */
function runScenario(suite: typeof SUITE, scenario: string) {
  const cwd = mkdtempSync(join(tmpdir(), 'rxagent-conformance-'));
  const args = [
    ...suite.node,
    suite.cli,
    'client',
    '--command',
    `${process.execPath} ${client}`,
    '--scenario',
    scenario,
    '--output-dir',
    'results',
  ];
  return new Promise<{ code: number | null; checks: Check[]; clientOutput: string }>((done) => {
    const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? '' } });
    child.stdout.resume();
    child.stderr.resume();
    child.on('close', (code) => {
      const found = existsSync(join(cwd, 'results'))
        ? readdirSync(join(cwd, 'results'), { recursive: true, encoding: 'utf8' }).find((f) =>
            f.endsWith('checks.json'),
          )
        : undefined;
      const dir = join(cwd, 'results', found ? dirname(found) : 'none');
      const read = (file: string) =>
        existsSync(join(dir, file)) ? readFileSync(join(dir, file), 'utf8') : '';
      const checks = JSON.parse(read('checks.json') || '[]') as Check[];
      const clientOutput = read('stdout.txt') + read('stderr.txt');
      rmSync(cwd, { recursive: true, force: true });
      done({ code, checks, clientOutput });
    });
  });
}

/** The suite's client secrets and the access token its authorization server issues: never printed by the client. */
const SUITE_SECRETS = [
  'test-client-secret',
  'pre-registered-secret',
  'conformance-test-secret',
  'conformance-test-xaa-secret',
  'test-token',
];

beforeAll(() => {
  if (
    !existsSync(join(repoRoot, 'packages/mcp/dist/index.js')) ||
    !existsSync(join(repoRoot, 'packages/testing/dist/index.js'))
  ) {
    execFileSync('pnpm', ['--filter', '@rxagent/mcp...', '--filter', '@rxagent/testing...', 'run', 'build'], {
      cwd: repoRoot,
      stdio: 'pipe',
    });
  }
}, 300_000);

describe.each([
  ['@modelcontextprotocol/conformance 0.1.13', SUITE, base],
  ['@modelcontextprotocol/conformance 0.1.16 (scenarios it adds)', LATEST, added],
])('%s: client scenarios', (_name, suite, scenarios) => {
  it.each(scenarios)(
    '%s',
    async (scenario) => {
      const { code, checks, clientOutput } = await runScenario(suite, scenario);
      const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      if (KNOWN_FAILURES[scenario]) {
        expect(failed.length).toBeGreaterThan(0); // a fixed one must leave the list
        return;
      }
      expect(failed.map((c) => `${c.id}: ${c.errorMessage ?? c.description ?? ''}`)).toEqual([]);
      expect(checks.filter((c) => c.status === 'SUCCESS').length).toBeGreaterThan(0);
      expect(code).toBe(0);
      for (const secret of SUITE_SECRETS) expect(clientOutput).not.toContain(secret);
    },
    90_000,
  );
});

describe('the suite itself', () => {
  it('has the client scenarios the README counts', () => {
    expect(base).toHaveLength(23);
    expect(added).toEqual([
      'auth/offline-access-scope',
      'auth/offline-access-not-supported',
      'auth/cross-app-access-complete-flow',
    ]);
  });
});
