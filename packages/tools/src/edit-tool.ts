import { tool, type Tool } from '@rxagent/core';
import { z } from 'zod';
import { writeFileAtomic } from './atomic-write.js';
import { statFile } from './fs-messages.js';
import { assertFreshRead, createReadState, recordWrite, type FileReadState } from './read-state.js';
import { readRegularFile } from './regular-file.js';
import { checkPath, withPathPolicyHook, type PathPolicy } from './permissions/path-policy.js';
import { resolveInRoot } from './resolve-in-root.js';
import { decodeText, encodeText, textProblem, toLf } from './text-file.js';
import { EditMatchError, NotTextFileError, ReadBeforeWriteError } from './tool-errors.js';
import { formatBytes, MAX_FILE_BYTES } from './truncate.js';
import { unifiedDiff } from './unified-diff.js';

const editParameters = z.object({
  path: z.string().describe('The file to change, relative to the root folder.'),
  oldText: z
    .string()
    .describe('Exact text to replace, copied from the file (without the line numbers read shows).'),
  newText: z.string().describe('The text to put in its place.'),
  replaceAll: z.boolean().optional().describe('Replace every match instead of requiring exactly one.'),
});

/**
 * Arguments of the `edit` tool.
 *
 * @example
 * const args: EditArgs = { path: 'src/a.ts', oldText: 'let x = 1;', newText: 'let x = 2;' };
 */
export type EditArgs = z.infer<typeof editParameters>;

/**
 * Options of `editTool`.
 *
 * @example
 * const edit = editTool({ root: '/work/project', readState });
 */
export interface EditToolOptions {
  /** The folder the tool is confined to. */
  root: string;
  /** The same read-state as the `read` tool's: editing needs a read of the file first. */
  readState?: FileReadState;
}

/**
 * The `edit` tool: replaces an exact, unique `oldText` with `newText` (every match with
 * `replaceAll`) and returns a unified diff of the change. CRLF files stay CRLF and a UTF-8 BOM
 * is kept. Needs a `read` of the file in the same run, refused when it changed since. Refuses
 * files that are binary or not valid UTF-8 (`NotTextFileError`). The file is replaced atomically
 * (temporary file, then rename): a hard link to it is not written through.
 *
 * @example
 * const { read, edit } = fileTools({ root: '/work/project' });
 * runAgent({ model, prompt: 'Rename foo to bar in src/a.ts', tools: [read, edit] });
 */
export function editTool(
  options: EditToolOptions,
  /** Set by `permissions().tools()`: its path rules, applied to every path touched. */
  pathPolicy?: PathPolicy,
): Tool<EditArgs, string> {
  const readState = options.readState ?? createReadState();
  return withPathPolicyHook(
    tool({
      name: 'edit',
      description:
        'Replace exact text in a file: oldText must match the file exactly once (include enough ' +
        'surrounding lines to make it unique) unless replaceAll is set. Read the file first. ' +
        'Returns a unified diff of the change.',
      parameters: editParameters,
      concurrencySafe: false,
      execute: async ({ path, oldText, newText, replaceAll = false }, ctx) => {
        if (oldText === '')
          throw new Error('oldText is empty: give the exact text to replace (write creates files).');
        const file = await resolveInRoot(options.root, path);
        checkPath(pathPolicy, 'edit', file.absolute, file.root);
        const stats = await statFile(file, 'Use write to create a new file.');
        // Cheap checks first: a file never read, or too large to edit, is refused unread.
        if (!readState.lastRead(ctx.runId, file.absolute))
          throw new ReadBeforeWriteError(file.relative, 'not-read');
        if (stats.size > MAX_FILE_BYTES) throw tooLarge(file.relative, stats.size);
        const read = await readRegularFile(file.absolute, { signal: ctx.signal, maxBytes: MAX_FILE_BYTES });
        if (!read) throw new Error(`${file.relative} is not a regular file.`);
        const { bytes } = read;
        if (!bytes) throw tooLarge(file.relative, read.stats.size);
        const problem = textProblem(bytes);
        if (problem) throw new NotTextFileError(file.relative, problem, 'edit changes');
        await assertFreshRead(readState, ctx.runId, file, bytes);
        const original = decodeText(bytes);
        // A file with lone CRs or mixed endings is matched as it is; others on `\n` text.
        const normalize = !original.text.includes('\r');
        const search = normalize ? toLf(oldText) : oldText;
        const replacement = normalize ? toLf(newText) : newText;
        if (search === replacement)
          throw new Error('oldText and newText are the same: there is nothing to change.');
        const matches = countMatches(original.text, search);
        if (matches === 0) throw new EditMatchError(file.relative, 0, lineNumberHint(oldText));
        if (matches > 1 && !replaceAll) throw new EditMatchError(file.relative, matches);
        const text = replaceAll
          ? original.text.split(search).join(replacement)
          : replaceFirst(original.text, search, replacement);
        const updated = encodeText({ ...original, text });
        await writeFileAtomic(file.absolute, updated);
        await recordWrite(readState, ctx.runId, file.absolute, updated);
        const replaced = replaceAll ? matches : 1;
        return (
          `Edited ${file.relative}: ${replaced} replacement${replaced === 1 ? '' : 's'}.\n\n` +
          unifiedDiff(original.text, text, file.relative)
        );
      },
    }),
    (policy) => editTool(options, policy),
    pathPolicy,
  );
}

function tooLarge(relative: string, size: number): Error {
  return new Error(
    `${relative} is larger than edit accepts (${formatBytes(size)}, the limit is ${formatBytes(MAX_FILE_BYTES)}): ` +
      'change it with bash (sed) or split it.',
  );
}

function countMatches(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) count++;
  return count;
}

// Not String.replace: `$&`, `$1`… in newText must be written as they are.
function replaceFirst(text: string, search: string, replacement: string): string {
  const at = text.indexOf(search);
  return text.slice(0, at) + replacement + text.slice(at + search.length);
}

function lineNumberHint(oldText: string): string {
  return /^ *\d+\t/.test(oldText)
    ? ' oldText seems to start with a line number from read: leave the numbers and the tab out.'
    : '';
}
