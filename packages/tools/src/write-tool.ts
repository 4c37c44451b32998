import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { tool, type Tool } from '@rxagent/core';
import { z } from 'zod';
import { writeFileAtomic } from './atomic-write.js';
import { assertFreshRead, createReadState, recordWrite, type FileReadState } from './read-state.js';
import { readRegularFile } from './regular-file.js';
import { checkPath, withPathPolicyHook, type PathPolicy } from './permissions/path-policy.js';
import { resolveInRoot } from './resolve-in-root.js';
import { textProblem } from './text-file.js';
import { NotTextFileError } from './tool-errors.js';

const writeParameters = z.object({
  path: z.string().describe('The file to write, relative to the root folder. Missing folders are created.'),
  content: z.string().describe('The complete new content of the file.'),
});

/**
 * Arguments of the `write` tool.
 *
 * @example
 * const args: WriteArgs = { path: 'notes/todo.md', content: '- ship it\n' };
 */
export type WriteArgs = z.infer<typeof writeParameters>;

/**
 * Options of `writeTool`.
 *
 * @example
 * const write = writeTool({ root: '/work/project', readState });
 */
export interface WriteToolOptions {
  /** The folder the tool is confined to. */
  root: string;
  /** The same read-state as the `read` tool's: overwriting needs a read of the file first. */
  readState?: FileReadState;
}

/**
 * The `write` tool: creates or overwrites a file with the given content (UTF-8, as given),
 * creating missing folders. Overwriting an existing file needs a `read` of it in the same run,
 * and is refused when the file changed since, or is binary or not valid UTF-8 (`NotTextFileError`).
 * The file is replaced atomically (temporary file, then rename): a hard link to it is not
 * written through.
 *
 * @example
 * const readState = createReadState();
 * const tools = [readTool({ root, readState }), writeTool({ root, readState })];
 */
export function writeTool(
  options: WriteToolOptions,
  /** Set by `permissions().tools()`: its path rules, applied to every path touched. */
  pathPolicy?: PathPolicy,
): Tool<WriteArgs, string> {
  const readState = options.readState ?? createReadState();
  return withPathPolicyHook(
    tool({
      name: 'write',
      description:
        'Create a file, or overwrite one, with the given content; missing folders are created. ' +
        'An existing file must be read first (in this run). Prefer edit for changing part of a file.',
      parameters: writeParameters,
      concurrencySafe: false,
      execute: async ({ path: requested, content }, ctx) => {
        const file = await resolveInRoot(options.root, requested);
        checkPath(pathPolicy, 'write', file.absolute, file.root);
        if (file.exists) {
          if ((await stat(file.absolute)).isDirectory()) {
            throw new Error(`${file.relative} is a folder: give the path of a file.`);
          }
          const existing = (await readRegularFile(file.absolute, { signal: ctx.signal }))?.bytes;
          if (!existing) throw new Error(`${file.relative} is not a regular file.`);
          // It could not have been read: say why rather than "read it first".
          const problem = textProblem(existing);
          if (problem) throw new NotTextFileError(file.relative, problem, 'write replaces');
          await assertFreshRead(readState, ctx.runId, file, existing);
        }
        await mkdir(path.dirname(file.absolute), { recursive: true });
        const bytes = Buffer.from(content, 'utf8');
        await writeFileAtomic(file.absolute, bytes);
        await recordWrite(readState, ctx.runId, file.absolute, bytes);
        return `${file.exists ? 'Overwrote' : 'Created'} ${file.relative} (${bytes.length} bytes).`;
      },
    }),
    (policy) => writeTool(options, policy),
    pathPolicy,
  );
}
