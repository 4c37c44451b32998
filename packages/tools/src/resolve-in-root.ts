import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { InvalidPathError, PathOutsideRootError } from './tool-errors.js';

/**
 * A path checked to be inside the root.
 *
 * @example
 * const { absolute, relative, exists }: ResolvedPath = await resolveInRoot(root, 'src/a.ts');
 */
export interface ResolvedPath {
  /** Absolute path with every symlink of its existing part resolved. */
  absolute: string;
  /** Relative to the root, `/`-separated; `.` for the root itself. Use it in messages. */
  relative: string;
  /** The root's real path. */
  root: string;
  /** Whether the path exists now. */
  exists: boolean;
}

// Linux gives up after 40 links (ELOOP); following dangling links ourselves uses the same bound.
const MAX_LINK_HOPS = 40;

/**
 * Resolves a path the model gave against `root` and refuses any that leads outside it:
 * `..` segments, absolute paths elsewhere, symlinks pointing out (also for files about to be
 * created: the nearest existing parent is resolved), and NUL bytes. Absolute paths inside the
 * root are allowed.
 *
 * @example
 * const file = await resolveInRoot('/work/project', 'src/index.ts');
 * // { absolute: '/work/project/src/index.ts', relative: 'src/index.ts', root: '/work/project', exists: true }
 */
export async function resolveInRoot(root: string, requested: string): Promise<ResolvedPath> {
  if (requested.includes('\0')) throw new InvalidPathError(requested, 'it contains a NUL byte');
  const rootAbsolute = path.resolve(root);
  const rootReal = await realRoot(rootAbsolute);
  const target = path.resolve(rootAbsolute, requested);
  // Checked lexically first so nothing outside the root is even looked at.
  if (!isInside(rootAbsolute, target) && !isInside(rootReal, target)) {
    throw new PathOutsideRootError(requested, rootAbsolute);
  }
  const { real, exists } = await realPathOf(requested, target, 0);
  if (!isInside(rootReal, real)) {
    throw new PathOutsideRootError(requested, rootAbsolute, 'a symlink on the way points outside');
  }
  return { absolute: real, relative: relativeTo(rootReal, real), root: rootReal, exists };
}

/**
 * True when `candidate` is `folder` or below it (both absolute and normalized).
 *
 * @example
 * isInside('/a', '/a/b'); // true
 * isInside('/a', '/ab');  // false
 */
export function isInside(folder: string, candidate: string): boolean {
  const rel = path.relative(folder, candidate);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/**
 * `absolute` relative to `root`, `/`-separated, `.` for the root itself.
 *
 * @example
 * relativeTo('/work', '/work/src/a.ts'); // 'src/a.ts'
 */
export function relativeTo(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join('/') || '.';
}

async function realRoot(rootAbsolute: string): Promise<string> {
  try {
    return await realpath(rootAbsolute);
  } catch (error) {
    if (isMissing(error)) throw new Error(`The root folder ${rootAbsolute} does not exist.`);
    throw error;
  }
}

/** The real path of `target`: its existing part resolved, the missing rest appended. */
async function realPathOf(
  requested: string,
  target: string,
  hops: number,
): Promise<{ real: string; exists: boolean }> {
  const missing: string[] = [];
  let current = target;
  for (;;) {
    try {
      const real = await realpath(current);
      return { real: path.join(real, ...missing.reverse()), exists: missing.length === 0 };
    } catch (error) {
      if (isLoop(error)) throw new InvalidPathError(requested, 'it goes through a symlink loop');
      if (!isMissing(error)) throw error;
    }
    // A dangling symlink: writing through it would create its target, so follow it like the OS would.
    const link = await symlinkTarget(current);
    if (link !== undefined) {
      if (hops >= MAX_LINK_HOPS) throw new InvalidPathError(requested, 'it goes through too many symlinks');
      const linkedTo = path.resolve(await realpath(path.dirname(current)), link);
      return realPathOf(requested, path.join(linkedTo, ...missing.reverse()), hops + 1);
    }
    const parent = path.dirname(current);
    if (parent === current) return { real: target, exists: false };
    missing.push(path.basename(current));
    current = parent;
  }
}

async function symlinkTarget(file: string): Promise<string | undefined> {
  try {
    return (await lstat(file)).isSymbolicLink() ? await readlink(file) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * True for "no such file" errors (`ENOENT`, or `ENOTDIR` when a parent is a file).
 *
 * @example
 * try { await stat(file); } catch (e) { if (isMissing(e)) console.log('not there'); }
 */
export function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function isLoop(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ELOOP';
}
