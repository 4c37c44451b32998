import { randomUUID } from 'node:crypto';
import { open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { checkSessionWrite } from '@rxagent/core/provider';
import { SessionConflictError, type AgentMessage, type Session, type SessionSnapshot } from '@rxagent/core';
import { MESSAGE_FORMAT_VERSION, migrateMessage } from './message-format.js';
import { SessionFormatError } from './session-errors.js';

/**
 * Options of `FileSession`.
 *
 * @example
 * const options: FileSessionOptions = { id: 'chat-42' };
 */
export interface FileSessionOptions {
  /** Names the session in errors (default: the path). */
  id?: string;
}

/** What the bytes read so far give. */
interface FileState {
  /** Bytes consumed: always just after a newline. */
  offset: number;
  version: number;
  messages: AgentMessage[];
}

interface StoredRecord {
  v: number;
  seq: number;
  kind: 'append' | 'clear';
  writer: string;
  messages?: unknown[];
}

const NEWLINE = 0x0a;
// Bytes read at a time when loading: a file of any size is read in pieces of this size.
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * A session in a JSON-lines file, append-only: each append or clear is one line (one
 * `write`, then `fsync`) carrying the version it creates. What survives a crash: every line
 * fsynced before it; a line torn by the crash is skipped when loading and fenced off by the
 * next writer. Two writers (two processes) are told apart by version: an append at a version
 * someone else already wrote fails with `SessionConflictError` before writing, and if both
 * pass that check at once, the line that lands first wins — the other is never part of the
 * transcript and its writer gets the same error. Files of older formats load (see
 * `MESSAGE_FORMAT_VERSION`). Reads are incremental: an instance reads only what was added
 * since it last looked, in 1 MiB pieces, so a file of any size loads (one line must fit in a
 * string: about 512 MB).
 *
 * @example
 * const session = new FileSession('./chat.jsonl');
 * const agent = new Agent({ model, session });
 * await agent.prompt('Remember: my name is Ada.'); // after a restart, a new Agent on the same file remembers
 */
export class FileSession implements Session {
  readonly id: string;
  private state: FileState = { offset: 0, version: 0, messages: [] };
  // One operation at a time per instance: a read must not interleave with this instance's write.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly path: string,
    options: FileSessionOptions = {},
  ) {
    this.id = options.id ?? path;
  }

  load(): Promise<SessionSnapshot> {
    return this.exclusive(async () => {
      const state = await this.read();
      return { messages: structuredClone(state.messages), version: state.version };
    });
  }

  append(messages: readonly AgentMessage[], expectedVersion: number): Promise<number> {
    let stored: unknown[];
    try {
      checkSessionWrite('FileSession.append', messages, expectedVersion, true);
      stored = JSON.parse(JSON.stringify(messages)) as unknown[]; // a copy taken now
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return this.write({ kind: 'append', messages: stored }, expectedVersion);
  }

  clear(expectedVersion?: number): Promise<number> {
    return Promise.resolve().then(() => {
      checkSessionWrite('FileSession.clear', undefined, expectedVersion, false);
      return this.write({ kind: 'clear' }, expectedVersion);
    });
  }

  private write(
    body: Pick<StoredRecord, 'kind' | 'messages'>,
    expected: number | undefined,
  ): Promise<number> {
    return this.exclusive(async () => {
      const before = await this.read();
      const version = expected ?? before.version;
      if (before.version !== version) throw new SessionConflictError(this.id, version, before.version);
      const record: StoredRecord = {
        v: MESSAGE_FORMAT_VERSION,
        seq: version + 1,
        kind: body.kind,
        writer: randomUUID(),
      };
      if (body.messages) record.messages = body.messages;
      await this.appendLine(JSON.stringify(record));
      // Another writer may have passed the same check at the same moment: the first line wins.
      let winner: string | undefined;
      const after = await this.read((seq, writer) => {
        if (seq === record.seq) winner = writer;
      });
      if (winner !== record.writer) throw new SessionConflictError(this.id, version, after.version);
      return record.seq;
    });
  }

  /** Appends one line in one write, fenced off from a torn last line, and fsyncs it. */
  private async appendLine(line: string): Promise<void> {
    let created = false;
    let size = 0;
    try {
      size = (await stat(this.path)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      created = true;
    }
    let fence = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      const reader = await open(this.path, 'r');
      try {
        await reader.read(last, 0, 1, size - 1);
      } finally {
        await reader.close();
      }
      if (last[0] !== NEWLINE) fence = '\n'; // a crash tore the last line: start a new one
    }
    const file = await open(this.path, 'a');
    try {
      await file.write(`${fence}${line}\n`);
      await file.sync();
    } finally {
      await file.close();
    }
    if (created) await syncDirectory(dirname(this.path));
  }

  /**
   * Reads what was added since the last read (everything, if the file shrank), streamed in
   * chunks line by line: memory holds one chunk and one line, whatever the file's size.
   */
  private async read(onApplied?: (seq: number, writer: string) => void): Promise<FileState> {
    let file;
    try {
      file = await open(this.path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      this.state = { offset: 0, version: 0, messages: [] };
      return this.state;
    }
    try {
      const { size } = await file.stat();
      if (size < this.state.offset) this.state = { offset: 0, version: 0, messages: [] };
      if (size === this.state.offset) return this.state;
      const state = { ...this.state, messages: this.state.messages.slice() };
      const chunk = Buffer.alloc(Math.min(READ_CHUNK_BYTES, size - state.offset));
      let position = state.offset;
      let partial: Buffer[] = []; // the start of a line that continues in the next chunk
      while (position < size) {
        const { bytesRead } = await file.read(chunk, 0, Math.min(chunk.length, size - position), position);
        if (bytesRead === 0) break;
        position += bytesRead;
        const view = chunk.subarray(0, bytesRead);
        let start = 0;
        for (let end = view.indexOf(NEWLINE); end !== -1; end = view.indexOf(NEWLINE, start)) {
          const line = Buffer.concat([...partial, view.subarray(start, end)]);
          partial = [];
          this.apply(state, line.toString('utf8'), onApplied);
          state.offset += line.length + 1;
          start = end + 1;
        }
        // Copied: the chunk is reused. A line not ended yet is read again next time.
        if (start < bytesRead) partial.push(Buffer.from(view.subarray(start)));
      }
      this.state = state;
      return state;
    } finally {
      await file.close();
    }
  }

  private apply(state: FileState, line: string, onApplied?: (seq: number, writer: string) => void): void {
    if (line.trim() === '') return;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      return; // a line torn by a crash: it never completed, so it was never acknowledged
    }
    const where = `${this.path} (version ${state.version + 1})`;
    if (typeof record !== 'object' || record === null)
      throw new SessionFormatError(where, 'a line is not a record.');
    const r = record as Partial<StoredRecord> & { message?: unknown };
    if (r.v === 1 && 'message' in r) {
      // Format 1: one message per line, each line a version.
      state.messages.push(migrateMessage(r.message, 1, where));
      state.version++;
      return;
    }
    if (typeof r.v !== 'number' || typeof r.seq !== 'number') {
      throw new SessionFormatError(where, 'a line is not a session record ({ v, seq, kind }).');
    }
    if (r.v > MESSAGE_FORMAT_VERSION) {
      throw new SessionFormatError(
        where,
        `format ${r.v} was written by a newer @rxagent/sessions (this one reads up to ${MESSAGE_FORMAT_VERSION}); upgrade it.`,
      );
    }
    if (r.seq !== state.version + 1) return; // a write that lost a race: not part of the transcript
    if (r.kind === 'clear') {
      state.messages = [];
    } else if (r.kind === 'append' && Array.isArray(r.messages)) {
      for (const m of r.messages) state.messages.push(migrateMessage(m, r.v, where));
    } else {
      throw new SessionFormatError(where, `unknown record kind ${JSON.stringify(r.kind)}.`);
    }
    state.version = r.seq;
    onApplied?.(r.seq, String(r.writer));
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** Makes a new file's directory entry durable (a no-op where directories cannot be opened). */
async function syncDirectory(path: string): Promise<void> {
  let dir;
  try {
    dir = await open(path, 'r');
    await dir.sync();
  } catch {
    // Some platforms (Windows) cannot fsync a directory.
  } finally {
    await dir?.close();
  }
}
