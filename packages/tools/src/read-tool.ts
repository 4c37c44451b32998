import { tool, type Tool } from '@rxagent/core';
import { z } from 'zod';
import { statFile } from './fs-messages.js';
import { createReadState, stampOf, type FileReadState } from './read-state.js';
import { readRegularFile } from './regular-file.js';
import { checkPath, withPathPolicyHook, type PathPolicy } from './permissions/path-policy.js';
import { resolveInRoot } from './resolve-in-root.js';
import { splitLines, textProblem } from './text-file.js';
import { NotTextFileError } from './tool-errors.js';
import { formatBytes, MAX_BYTES, MAX_FILE_BYTES, MAX_LINES, truncateHead } from './truncate.js';

const readParameters = z.object({
  path: z.string().describe('The file to read, relative to the root folder.'),
  offset: z.number().int().min(1).optional().describe('First line to show, 1-based (default 1).'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`How many lines to show (default: as many as fit in ${MAX_LINES} lines / 50 KB).`),
});

/**
 * Arguments of the `read` tool.
 *
 * @example
 * const args: ReadArgs = { path: 'src/index.ts', offset: 100, limit: 50 };
 */
export type ReadArgs = z.infer<typeof readParameters>;

/**
 * Options of `readTool`.
 *
 * @example
 * const read = readTool({ root: '/work/project', readState: createReadState() });
 */
export interface ReadToolOptions {
  /** The folder the tool is confined to. */
  root: string;
  /** Shared with `write`/`edit` so they know what this run has read (default: a new one). */
  readState?: FileReadState;
}

/**
 * The `read` tool: shows a text file with `cat -n` style line numbers (`     1\t…`), from the
 * head, at most 2,000 lines or 50 KB of text, ending with a note saying how to read more.
 * `offset`/`limit` pick a line range. Records the read for `write`/`edit`.
 *
 * @example
 * const readState = createReadState();
 * runAgent({ model, prompt, tools: [readTool({ root: '/work/project', readState })] });
 */
export function readTool(
  options: ReadToolOptions,
  /** Set by `permissions().tools()`: its path rules, applied to every path touched. */
  pathPolicy?: PathPolicy,
): Tool<ReadArgs, string> {
  const readState = options.readState ?? createReadState();
  return withPathPolicyHook(
    tool({
      name: 'read',
      description:
        'Read a text file inside the root folder. Lines are shown numbered like `cat -n` ' +
        `(number, tab, text); the numbers are not part of the file. Shows at most ${MAX_LINES} lines ` +
        'or 50 KB; use offset and limit to read a part or to continue. A file must be read before ' +
        'it is changed with write or edit.',
      parameters: readParameters,
      concurrencySafe: true,
      execute: async ({ path, offset = 1, limit }, ctx) => {
        const file = await resolveInRoot(options.root, path);
        checkPath(pathPolicy, 'read', file.absolute, file.root);
        const stats = await statFile(file);
        if (stats.size > MAX_FILE_BYTES) {
          throw new Error(
            `${file.relative} is ${formatBytes(stats.size)}, more than read loads ` +
              `(${formatBytes(MAX_FILE_BYTES)}): use grep to find the lines you need.`,
          );
        }
        const opened = await readRegularFile(file.absolute, { signal: ctx.signal });
        if (!opened?.bytes) throw new Error(`${file.relative} is not a regular file.`);
        const { bytes, stats: readStats } = opened;
        const problem = textProblem(bytes);
        if (problem) throw new NotTextFileError(file.relative, problem, 'read shows');
        const lines = splitLines(bytes.toString('utf8'));
        if (lines.length === 0) {
          readState.record(ctx.runId, file.absolute, stampOf(readStats, bytes));
          return `[${file.relative} is empty.]`;
        }
        if (offset > lines.length) {
          throw new Error(
            `offset ${offset} is past the end of ${file.relative}, which has ${lines.length} lines.`,
          );
        }
        const wanted = lines.slice(offset - 1, limit === undefined ? undefined : offset - 1 + limit);
        const shown = truncateHead(wanted, { maxLines: MAX_LINES, maxBytes: MAX_BYTES });
        readState.record(ctx.runId, file.absolute, stampOf(readStats, bytes));
        const numbered = shown.lines.map((line, i) => `${String(offset + i).padStart(6)}\t${line}`);
        const note = readNote(offset, shown.lines.length, lines.length, shown.by, shown.lineCut);
        return note ? `${numbered.join('\n')}\n\n${note}` : numbered.join('\n');
      },
    }),
    (policy) => readTool(options, policy),
    pathPolicy,
  );
}

function readNote(
  first: number,
  count: number,
  total: number,
  by: 'lines' | 'bytes' | undefined,
  lineCut: boolean | undefined,
): string {
  const last = first + count - 1;
  const more = last < total ? ` Use offset=${last + 1} to read more.` : '';
  if (lineCut) {
    return `[Line ${first} is longer than ${formatBytes(MAX_BYTES)}: only its start is shown.${more}]`;
  }
  if (last >= total && first === 1) return '';
  const limit = by === 'bytes' ? ` (${formatBytes(MAX_BYTES)} limit)` : '';
  return `[Showing lines ${first}-${last} of ${total}${limit}.${more}]`;
}
