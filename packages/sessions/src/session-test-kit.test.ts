import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import type { AgentMessage } from '@rxagent/core';

// Shared by the session specs: a transcript with every kind of message, and child processes
// that use the built package (a second process is what the crash and concurrency tests need).

const packageRoot = resolve(__dirname, '..');
const repoRoot = resolve(packageRoot, '../..');

/** Builds the package (and core) so child processes can import it; incremental, so cheap when built. */
export function ensureBuilt(): void {
  const tsc = createRequire(join(repoRoot, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-b', join(packageRoot, 'tsconfig.build.json')], { cwd: repoRoot });
  if (!existsSync(join(packageRoot, 'dist/index.js'))) throw new Error('@rxagent/sessions did not build.');
}

/** A child process running `code` (an ES module) with the package imported as `sessions`. */
export function startChild(code: string): {
  child: ChildProcess;
  lines: AsyncIterable<string>;
  done: Promise<number | null>;
} {
  const url = pathToFileURL(join(packageRoot, 'dist/index.js')).href;
  const source = `import * as sessions from ${JSON.stringify(url)};\n${code}`;
  // Only what node needs: nothing of the parent's environment (secrets) reaches the child.
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], {
    cwd: packageRoot,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<number | null>((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code !== 0 && signal === null) reject(new Error(`child exited with ${code}: ${stderr}`));
      else resolvePromise(code);
    });
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  return { child, lines, done };
}

/** Every kind of message, as a run would store them. */
export function sampleTranscript(tag = ''): AgentMessage[] {
  return [
    { role: 'user', content: `Where is the report?${tag}`, timestamp: 1 },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', text: 'Look it up.', signature: 'sig==' },
        { type: 'text', text: 'Let me check.' },
        {
          type: 'tool-call',
          id: `c1${tag}`,
          name: 'find',
          args: { name: 'report', depth: 2 },
          argsText: '{"name":"report","depth":2}',
        },
      ],
      stopReason: 'tool-calls',
      usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 15 },
      provider: 'openai',
      model: 'gpt-4o-mini',
      timestamp: 2,
    },
    {
      role: 'tool',
      toolCallId: `c1${tag}`,
      toolName: 'find',
      content: [
        { type: 'text', text: 'docs/report.md — “Ünïcødé” ✓' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      ],
      isError: false,
      timestamp: 3,
    },
    { role: 'custom', customType: 'note', content: { pinned: true }, timestamp: 4 },
  ];
}
