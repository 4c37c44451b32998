import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import type { McpStdioServer } from './mcp-server-config.js';

/** The published reference server, run from this package's node_modules (no network, no npx). */
export const EVERYTHING = path.join(
  __dirname,
  '..',
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);

/** The small server of these tests (official SDK), for the edge cases. */
export const EDGE_SERVER = path.join(__dirname, 'fixtures', 'edge-server.mjs');

export const everythingStdio = (extra: Partial<McpStdioServer> = {}): McpStdioServer => ({
  name: 'everything',
  command: process.execPath,
  args: [EVERYTHING, 'stdio'],
  ...extra,
});

export const edgeStdio = (extra: Partial<McpStdioServer> = {}): McpStdioServer => ({
  name: 'edge',
  command: process.execPath,
  args: [EDGE_SERVER],
  // The fixture imports the SDK and zod, which resolve from this package.
  cwd: path.join(__dirname, '..'),
  ...extra,
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface HttpServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts server-everything over Streamable HTTP and resolves once it listens. */
export async function startEverythingHttp(port?: number): Promise<HttpServerProcess> {
  port ??= await freePort();
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('listening on port')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited with ${code}: ${seen}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** True while a process of that id runs. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
