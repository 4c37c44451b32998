import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import type { ResolvedPath } from './resolve-in-root.js';
import { ReadBeforeWriteError } from './tool-errors.js';

/**
 * What a file looked like when it was read (or last written by the tools).
 *
 * @example
 * const stamp: FileStamp | undefined = readState.lastRead(ctx.runId, file.absolute);
 */
export interface FileStamp {
  mtimeMs: number;
  size: number;
  sha256: string;
}

/**
 * Which files each run has read, and what they looked like then: `write` and `edit` consult
 * it to refuse changing a file the model has not seen, or one that changed since.
 *
 * @example
 * const readState = createReadState();
 * const tools = [readTool({ root, readState }), editTool({ root, readState })];
 */
export interface FileReadState {
  /** Remembers that `runId` saw `file` (a real absolute path) as `stamp`. */
  record(runId: string, file: string, stamp: FileStamp): void;
  /** What `runId` saw of `file` last, if it read it. */
  lastRead(runId: string, file: string): FileStamp | undefined;
  /** Forgets a finished run (or every run) to free memory. */
  forget(runId?: string): void;
}

/**
 * A new, empty read-state (kept in memory, keyed by run id then real path).
 *
 * @example
 * const readState = createReadState();
 * const { read, write, edit } = fileTools({ root: process.cwd(), readState });
 */
export function createReadState(): FileReadState {
  const runs = new Map<string, Map<string, FileStamp>>();
  return {
    record(runId, file, stamp) {
      let files = runs.get(runId);
      if (!files) runs.set(runId, (files = new Map<string, FileStamp>()));
      files.set(file, stamp);
    },
    lastRead: (runId, file) => runs.get(runId)?.get(file),
    forget(runId) {
      if (runId === undefined) runs.clear();
      else runs.delete(runId);
    },
  };
}

/**
 * The stamp of file content, from its stats and bytes.
 *
 * @example
 * const bytes = await readFile(file);
 * readState.record(ctx.runId, file, stampOf(await stat(file), bytes));
 */
export function stampOf(stats: { mtimeMs: number; size: number }, content: Uint8Array): FileStamp {
  return { mtimeMs: stats.mtimeMs, size: stats.size, sha256: sha256(content) };
}

/**
 * Throws `ReadBeforeWriteError` unless `runId` read `file` and it is unchanged since. Same
 * mtime and size count as unchanged; a new mtime with the same content (a `touch`) too.
 *
 * @example
 * if (file.exists) await assertFreshRead(readState, ctx.runId, file);
 */
export async function assertFreshRead(
  state: FileReadState,
  runId: string,
  file: ResolvedPath,
  content?: Uint8Array,
): Promise<void> {
  const seen = state.lastRead(runId, file.absolute);
  if (!seen) throw new ReadBeforeWriteError(file.relative, 'not-read');
  const now = await stat(file.absolute);
  if (now.size === seen.size && now.mtimeMs === seen.mtimeMs) return;
  if (now.size !== seen.size) throw new ReadBeforeWriteError(file.relative, 'changed');
  const bytes = content ?? (await readFile(file.absolute));
  if (sha256(bytes) !== seen.sha256) throw new ReadBeforeWriteError(file.relative, 'changed');
}

/**
 * Records what the tools just wrote, so the next `write`/`edit` of the run needs no new read.
 *
 * @example
 * await writeFile(file.absolute, bytes);
 * await recordWrite(readState, ctx.runId, file.absolute, bytes);
 */
export async function recordWrite(
  state: FileReadState,
  runId: string,
  file: string,
  content: Uint8Array,
): Promise<void> {
  state.record(runId, file, stampOf(await stat(file), content));
}

function sha256(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
