import { constants, type Stats } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';

// O_NONBLOCK: opening a FIFO swapped in after the check does not wait for a writer.
// O_NOFOLLOW: a symlink swapped in for the file is not followed.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * Reads a file only if it is a regular file, checked before opening (`stat`) and again on the
 * opened handle (`fstat`): a FIFO, socket or device gives `undefined` instead of blocking or
 * reading forever. The read stops when `signal` aborts. Files larger than `maxBytes` give their
 * stats without bytes.
 *
 * @example
 * const file = await readRegularFile('/work/p/a.txt', { signal: ctx.signal });
 * if (file?.bytes) console.log(file.bytes.length);
 */
export async function readRegularFile(
  absolute: string,
  options: { signal?: AbortSignal; maxBytes?: number } = {},
): Promise<{ stats: Stats; bytes?: Buffer } | undefined> {
  if (!(await stat(absolute)).isFile()) return undefined;
  const handle = await open(absolute, OPEN_FLAGS);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return undefined;
    if (options.maxBytes !== undefined && stats.size > options.maxBytes) return { stats };
    return { stats, bytes: await readFile(handle, { signal: options.signal }) };
  } finally {
    await handle.close();
  }
}
