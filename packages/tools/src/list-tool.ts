import { tool, type Tool } from '@rxagent/core';
import { z } from 'zod';
import { escapeName } from './escape-name.js';
import { statFolder } from './fs-messages.js';
import { checkPath, withPathPolicyHook, type PathPolicy } from './permissions/path-policy.js';
import { resolveInRoot } from './resolve-in-root.js';
import { walkTree, type TreeEntry } from './walk-tree.js';

/**
 * Deepest `depth` a `list` call may ask for.
 *
 * @example
 * await list.execute({ path: 'src', depth: MAX_LIST_DEPTH }, ctx);
 */
export const MAX_LIST_DEPTH = 10;
const DEFAULT_MAX_ENTRIES = 500;

const listParameters = z.object({
  path: z
    .string()
    .optional()
    .describe('The folder to list, relative to the root folder (default: the root).'),
  depth: z
    .number()
    .int()
    .min(1)
    .max(MAX_LIST_DEPTH)
    .optional()
    .describe('1 (default) lists the folder itself; 2 also the content of its subfolders, and so on.'),
  limit: z.number().int().min(1).optional().describe('Most entries to show.'),
});

/**
 * Arguments of the `list` tool.
 *
 * @example
 * const args: ListArgs = { path: 'src', depth: 2 };
 */
export type ListArgs = z.infer<typeof listParameters>;

/**
 * Options of `listTool`.
 *
 * @example
 * const list = listTool({ root: '/work/project', maxEntries: 1000 });
 */
export interface ListToolOptions {
  /** The folder the tool is confined to. */
  root: string;
  /** Most entries one call shows, and the cap of its `limit` (default 500). */
  maxEntries?: number;
}

/**
 * The `list` tool: the entries of a folder, one path per line relative to the root, sorted,
 * folders with a trailing `/`, symlinks with a trailing `@` (never followed), control characters
 * in names escaped JSON-style (`a\nb`, so one name is always one line). `depth` walks
 * subfolders; `node_modules` and `.git` are listed but not entered. Stops at `maxEntries`.
 *
 * @example
 * runAgent({ model, prompt: 'What is in this project?', tools: [listTool({ root: '/work/project' })] });
 */
export function listTool(
  options: ListToolOptions,
  /** Set by `permissions().tools()`: its path rules, applied to every path touched. */
  pathPolicy?: PathPolicy,
): Tool<ListArgs, string> {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  return withPathPolicyHook(
    tool({
      name: 'list',
      description:
        'List a folder inside the root: one path per line (relative to the root), folders end ' +
        'with "/", symlinks with "@". depth > 1 also lists subfolders (node_modules and .git are ' +
        `not entered). At most ${maxEntries} entries.`,
      parameters: listParameters,
      concurrencySafe: true,
      execute: async ({ path = '.', depth = 1, limit }, ctx) => {
        const folder = await resolveInRoot(options.root, path);
        checkPath(pathPolicy, 'list', folder.absolute, folder.root);
        await statFolder(folder);
        const max = Math.min(limit ?? maxEntries, maxEntries);
        const lines: string[] = [];
        let hidden = 0;
        const skip = (absolute: string) =>
          pathPolicy?.refusal('list', absolute, folder.root, true) !== undefined && ++hidden > 0;
        const walk = walkTree(folder.absolute, {
          root: folder.root,
          maxDepth: depth,
          signal: ctx.signal,
          skip,
        });
        for await (const entry of walk) {
          if (lines.length === max) {
            return (
              `${lines.join('\n')}\n\n[Stopped at ${max} entries: list a subfolder, or use a ` +
              'smaller depth, to see the rest.]'
            );
          }
          lines.push(display(entry));
        }
        const note = hidden > 0 ? `\n\n[${hidden} entries left out by permission rules.]` : '';
        return (lines.length ? lines.join('\n') : `[${folder.relative} is empty.]`) + note;
      },
    }),
    (policy) => listTool(options, policy),
    pathPolicy,
  );
}

function display(entry: TreeEntry): string {
  const name = escapeName(entry.relative);
  if (entry.kind === 'folder') return `${name}/`;
  if (entry.kind === 'symlink') return `${name}@`;
  return name;
}
