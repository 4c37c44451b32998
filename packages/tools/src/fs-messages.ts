import { stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { ResolvedPath } from './resolve-in-root.js';

/**
 * Stats of a path that must be an existing file, with errors that tell the model what to do.
 *
 * @example
 * const stats = await statFile(file, 'Use write to create it.');
 */
export async function statFile(file: ResolvedPath, whenMissing = ''): Promise<Stats> {
  if (!file.exists)
    throw new Error(`File not found: ${file.relative}.${whenMissing ? ` ${whenMissing}` : ''}`);
  const stats = await stat(file.absolute);
  if (stats.isDirectory())
    throw new Error(`${file.relative} is a folder, not a file: use list to see what is in it.`);
  if (!stats.isFile()) throw new Error(`${file.relative} is not a regular file.`);
  return stats;
}

/**
 * Stats of a path that must be an existing folder.
 *
 * @example
 * await statFolder(await resolveInRoot(root, 'src'));
 */
export async function statFolder(folder: ResolvedPath): Promise<Stats> {
  if (!folder.exists) throw new Error(`Folder not found: ${folder.relative}.`);
  const stats = await stat(folder.absolute);
  if (!stats.isDirectory())
    throw new Error(`${folder.relative} is a file, not a folder: use read to see it.`);
  return stats;
}
