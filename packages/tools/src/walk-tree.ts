import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { relativeTo } from './resolve-in-root.js';

/**
 * Folders `list` shows but never enters, and `grep` never searches.
 *
 * @example
 * SKIPPED_FOLDERS.includes('node_modules'); // true
 */
export const SKIPPED_FOLDERS: readonly string[] = ['node_modules', '.git'];

/**
 * One entry met while walking a folder.
 *
 * @example
 * for await (const { relative, kind } of walkTree(folder, options)) console.log(kind, relative);
 */
export interface TreeEntry {
  absolute: string;
  /** Relative to the root, `/`-separated. */
  relative: string;
  kind: 'file' | 'folder' | 'symlink' | 'other';
  /** 1 for the entries of the folder walked, 2 for theirs, … */
  depth: number;
}

/**
 * Options of `walkTree`.
 *
 * @example
 * const options: WalkOptions = { root: '/work/p', maxDepth: 3, signal: ctx.signal };
 */
export interface WalkOptions {
  /** The root's real path, for `relative`. */
  root: string;
  /** Deepest level yielded (1 = the folder's own entries). */
  maxDepth: number;
  /** Checked before each folder is read: an aborted walk throws. */
  signal?: AbortSignal;
  /** Entries it returns true for are neither yielded nor entered (permission path rules). */
  skip?: (absolute: string) => boolean;
}

/**
 * Walks a folder depth-first, entries sorted by name, folders before their content. Symlinks
 * are yielded but never followed (they could lead out of the root or loop); `node_modules` and
 * `.git` are yielded but not entered. Unreadable subfolders are skipped.
 *
 * @example
 * for await (const entry of walkTree('/work/p/src', { root: '/work/p', maxDepth: 2 })) console.log(entry.relative);
 */
export async function* walkTree(folder: string, options: WalkOptions, depth = 1): AsyncGenerator<TreeEntry> {
  if (options.signal?.aborted) throw new Error('The tool call was cancelled.');
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (depth === 1) throw error;
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const absolute = path.join(folder, entry.name);
    if (options.skip?.(absolute)) continue;
    const kind = kindOf(entry);
    yield { absolute, relative: relativeTo(options.root, absolute), kind, depth };
    if (kind === 'folder' && depth < options.maxDepth && !SKIPPED_FOLDERS.includes(entry.name)) {
      yield* walkTree(absolute, options, depth + 1);
    }
  }
}

function kindOf(entry: Dirent): TreeEntry['kind'] {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'folder';
  if (entry.isFile()) return 'file';
  return 'other';
}
