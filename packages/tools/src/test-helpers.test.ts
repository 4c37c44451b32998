// Shared by the spec files. Named *.test.ts so the build (which excludes it) leaves it out of
// dist while jest, which runs *.spec.ts only, does not take it for a test suite.
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { asyncScheduler, isObservable, lastValueFrom } from 'rxjs';
import type { Tool, ToolContext } from '@rxagent/core';

/** A ToolContext for calling `execute` directly, recording progress. */
export interface TestContext extends ToolContext {
  progressed: unknown[];
}

/**
 * A ToolContext with run id `run-1` (override any field).
 *
 * @example
 * await readTool({ root }).execute({ path: 'a.txt' }, toolContext({ runId: 'run-2' }));
 */
export function toolContext(overrides: Partial<ToolContext> = {}): TestContext {
  const progressed: unknown[] = [];
  return {
    runId: 'run-1',
    toolCallId: 'call-1',
    toolName: 'test',
    signal: new AbortController().signal,
    progress: (p: unknown) => progressed.push(p),
    messages: [],
    scheduler: asyncScheduler,
    ...overrides,
    progressed,
  };
}

/** A temp folder with `root/` (the tools' root) and `outside/secret.txt` next to it. */
export interface TempRoot {
  root: string;
  outside: string;
  secret: string;
  /** Writes a file under the root, creating folders. */
  put(relative: string, content: string | Uint8Array): Promise<string>;
  cleanup(): Promise<void>;
}

/**
 * Creates a fresh temp root under `os.tmpdir()`; call `cleanup()` after the test.
 *
 * @example
 * const t = await tempRoot(); await t.put('a.txt', 'hi'); await t.cleanup();
 */
export async function tempRoot(): Promise<TempRoot> {
  const base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'rxagent-tools-')));
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  await mkdir(root);
  await mkdir(outside);
  const secret = path.join(outside, 'secret.txt');
  await writeFile(secret, 'top secret\n');
  return {
    root,
    outside,
    secret,
    async put(relative, content) {
      const file = path.join(root, relative);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, content);
      return file;
    },
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

/**
 * Calls a tool's `execute` as the loop would, as a Promise of its result.
 *
 * @example
 * const text = await execute(readTool({ root }), { path: 'a.txt' });
 */
export function execute<A, R>(tool: Tool<A, R>, args: A, ctx: ToolContext = toolContext()): Promise<R> {
  const out = tool.execute(args, ctx);
  return isObservable(out) ? lastValueFrom(out) : Promise.resolve(out);
}
