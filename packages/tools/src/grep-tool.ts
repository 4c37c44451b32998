import { stat } from 'node:fs/promises';
import path from 'node:path';
import { tool, type Tool } from '@rxagent/core';
import { z } from 'zod';
import { compileGlob } from './glob.js';
import { escapeName } from './escape-name.js';
import { readRegularFile } from './regular-file.js';
import { checkPath, withPathPolicyHook, type PathPolicy } from './permissions/path-policy.js';
import { resolveInRoot, type ResolvedPath } from './resolve-in-root.js';
import { splitLines, textProblem } from './text-file.js';
import { MAX_FILE_BYTES } from './truncate.js';
import { walkTree } from './walk-tree.js';

const DEFAULT_MAX_MATCHES = 100;
/**
 * Matching lines longer than this are shown as a window around the match.
 *
 * @example
 * line.length > MAX_GREP_LINE_CHARS; // shown as '…window…'
 */
export const MAX_GREP_LINE_CHARS = 500;
// The walk has no depth limit of its own; this only guards against absurdly deep trees.
const MAX_WALK_DEPTH = 64;

const grepParameters = z.object({
  pattern: z
    .string()
    .describe('A JavaScript regular expression, without slashes, e.g. "export function \\\\w+".'),
  path: z
    .string()
    .optional()
    .describe('File or folder to search, relative to the root folder (default: the root).'),
  include: z
    .string()
    .optional()
    .describe('Only search files whose name matches this glob, e.g. "*.ts" or "*.{ts,tsx}".'),
  ignoreCase: z.boolean().optional().describe('Match without regard to case.'),
  limit: z.number().int().min(1).optional().describe('Most matching lines to show.'),
});

/**
 * Arguments of the `grep` tool.
 *
 * @example
 * const args: GrepArgs = { pattern: 'TODO|FIXME', include: '*.ts', ignoreCase: true };
 */
export type GrepArgs = z.infer<typeof grepParameters>;

/**
 * Options of `grepTool`.
 *
 * @example
 * const grep = grepTool({ root: '/work/project', maxMatches: 200 });
 */
export interface GrepToolOptions {
  /** The folder the tool is confined to. */
  root: string;
  /** Most matching lines one call shows, and the cap of its `limit` (default 100). */
  maxMatches?: number;
}

/**
 * The `grep` tool: searches file contents under a path with a JavaScript RegExp and returns
 * `path:line: text` lines (paths relative to the root, control characters escaped), stopping at
 * `maxMatches`. Reads regular files only (never FIFOs or devices); skips binary and non-UTF-8
 * files, files over 20 MB, symlinks, `node_modules` and `.git`; long lines are cut around the
 * match. Checks `ctx.signal` between files, and reads stop when it aborts.
 *
 * @example
 * runAgent({ model, prompt: 'Where is runAgent defined?', tools: [grepTool({ root: '/work/project' })] });
 */
export function grepTool(
  options: GrepToolOptions,
  /** Set by `permissions().tools()`: its path rules, applied to every path touched. */
  pathPolicy?: PathPolicy,
): Tool<GrepArgs, string> {
  const maxMatches = options.maxMatches ?? DEFAULT_MAX_MATCHES;
  return withPathPolicyHook(
    tool({
      name: 'grep',
      description:
        'Search file contents inside the root with a JavaScript regular expression. Returns ' +
        '"path:line: text" lines. Skips binary files, node_modules and .git. Use include to filter ' +
        `file names and path to narrow the search. At most ${maxMatches} matching lines.`,
      parameters: grepParameters,
      concurrencySafe: true,
      execute: async ({ pattern, path: requested = '.', include, ignoreCase, limit }, ctx) => {
        const regex = compile(pattern, ignoreCase === true);
        const nameFilter = include === undefined ? undefined : compileGlob(include);
        const start = await resolveInRoot(options.root, requested);
        checkPath(pathPolicy, 'grep', start.absolute, start.root);
        if (!start.exists) throw new Error(`Path not found: ${start.relative}.`);
        const max = Math.min(limit ?? maxMatches, maxMatches);
        const found: string[] = [];
        const skip = (absolute: string) =>
          pathPolicy?.refusal('grep', absolute, start.root, true) !== undefined;
        for await (const file of filesUnder(start, ctx.signal, skip)) {
          if (ctx.signal.aborted) throw new Error('The search was cancelled.');
          if (
            nameFilter &&
            !nameFilter.test(include?.includes('/') ? file.relative : path.basename(file.relative))
          ) {
            continue;
          }
          const lines = await textLines(file.absolute, ctx.signal);
          for (let i = 0; i < lines.length; i++) {
            const line = lines[i] as string;
            const match = regex.exec(line);
            if (!match) continue;
            if (found.length === max) {
              return `${found.join('\n')}\n\n[Stopped at ${max} matching lines: narrow the pattern, path or include.]`;
            }
            found.push(`${escapeName(file.relative)}:${i + 1}: ${clip(line, match.index)}`);
          }
        }
        return found.length ? found.join('\n') : `No matches for /${pattern}/ in ${start.relative}.`;
      },
    }),
    (policy) => grepTool(options, policy),
    pathPolicy,
  );
}

function compile(pattern: string, ignoreCase: boolean): RegExp {
  try {
    return new RegExp(pattern, ignoreCase ? 'i' : '');
  } catch (error) {
    throw new Error(
      `Invalid regular expression: ${(error as Error).message}. Escape special characters with \\.`,
    );
  }
}

async function* filesUnder(
  start: ResolvedPath,
  signal: AbortSignal,
  skip: (absolute: string) => boolean,
): AsyncGenerator<ResolvedPath> {
  const stats = await stat(start.absolute);
  if (!stats.isDirectory()) {
    if (!stats.isFile())
      throw new Error(`${start.relative} is not a regular file or folder: grep searches regular files only.`);
    yield start;
    return;
  }
  for await (const entry of walkTree(start.absolute, {
    root: start.root,
    maxDepth: MAX_WALK_DEPTH,
    signal,
    skip,
  })) {
    if (entry.kind === 'file') yield { ...start, absolute: entry.absolute, relative: entry.relative };
  }
}

/**
 * The lines of a searchable text file; none for binary, non-UTF-8, huge or unreadable files,
 * and for anything but a regular file (a FIFO or device would block or never end).
 */
async function textLines(file: string, signal: AbortSignal): Promise<string[]> {
  let bytes: Buffer | undefined;
  try {
    bytes = (await readRegularFile(file, { signal, maxBytes: MAX_FILE_BYTES }))?.bytes;
  } catch {
    if (signal.aborted) throw new Error('The search was cancelled.');
    return [];
  }
  return bytes === undefined || textProblem(bytes) ? [] : splitLines(bytes.toString('utf8'));
}

function clip(line: string, matchAt: number): string {
  if (line.length <= MAX_GREP_LINE_CHARS) return line;
  const from = Math.max(0, Math.min(matchAt - 100, line.length - MAX_GREP_LINE_CHARS));
  const to = from + MAX_GREP_LINE_CHARS;
  return `${from > 0 ? '…' : ''}${line.slice(from, to)}${to < line.length ? '…' : ''}`;
}
