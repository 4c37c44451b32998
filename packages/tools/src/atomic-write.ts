import { randomBytes } from 'node:crypto';
import { chmod, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes `bytes` to a temporary file in the target's folder, then renames it over the target:
 * readers see the old or the new content, never a half-written file, and a hard-linked target
 * is replaced (the link is broken) rather than written through to the other names of its
 * inode. An existing target's permission bits are kept (not its owner).
 *
 * @example
 * await writeFileAtomic('/work/p/src/a.ts', Buffer.from('export {};\n'));
 */
export async function writeFileAtomic(target: string, bytes: Uint8Array): Promise<void> {
  const mode = await stat(target).then(
    (stats) => stats.mode & 0o7777,
    () => undefined,
  );
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  const handle = await open(temp, 'wx', 0o666);
  try {
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (mode !== undefined) await chmod(temp, mode);
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
