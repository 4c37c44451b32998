import {
  AgentConfigError,
  SessionConflictError,
  type AgentMessage,
  type Session,
  type SessionSnapshot,
} from '@rxagent/core';
import { checkSessionWrite } from '@rxagent/core/provider';
import { loadSqlite } from './load-sqlite.js';
import { MESSAGE_FORMAT_VERSION, migrateMessage } from './message-format.js';
import type { SqliteDatabase } from './sqlite-database.js';

/**
 * Options of `SqliteSession`.
 *
 * @example
 * const options: SqliteSessionOptions = { busyTimeoutMs: 2000 };
 */
export interface SqliteSessionOptions {
  /** How long a write waits for another process's transaction (default 5000 ms). */
  busyTimeoutMs?: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS rxagent_sessions (
  id TEXT PRIMARY KEY,
  version INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS rxagent_session_messages (
  session_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  format INTEGER NOT NULL,
  message TEXT NOT NULL,
  PRIMARY KEY (session_id, position)
);
`;

interface MessageRow {
  position: number;
  format: number;
  message: string;
}

/**
 * A session in a SQLite database (through `better-sqlite3`, an optional add-on), many sessions
 * per file. Each append or clear is one `BEGIN IMMEDIATE` transaction that checks the version
 * first, so two processes writing one session get `SessionConflictError` for the second write
 * and the transcript never interleaves; a crash mid-write rolls the transaction back. WAL
 * journal, `synchronous = FULL`: a resolved append is on disk. Each stored message keeps its
 * format version, so rows written by an older version still load. Given a path, the session
 * loads better-sqlite3 and opens the file on its first call (a missing add-on rejects that
 * call with `SqliteAddonError`); calls are synchronous underneath, wrapped in Promises.
 *
 * @example
 * const db = new SqliteSession('./sessions.db', 'chat-42');
 * const agent = new Agent({ model, session: db });
 * await agent.prompt('Hi');
 * db.close();
 */
export class SqliteSession implements Session {
  private db?: SqliteDatabase;
  private opening?: Promise<SqliteDatabase>;
  private closed = false;
  private readonly owned: boolean;
  private readonly busyTimeoutMs: number;

  /**
   * @param database A file path (or `:memory:`), opened on the first call, or an open
   *   better-sqlite3 database (left open by `close`).
   * @param id The session's id in the database.
   */
  constructor(
    private readonly database: string | SqliteDatabase,
    readonly id: string,
    options: SqliteSessionOptions = {},
  ) {
    checkArguments(database, id);
    this.owned = typeof database === 'string';
    this.busyTimeoutMs = Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000));
    if (typeof database !== 'string') this.db = this.prepare(database);
  }

  load(): Promise<SessionSnapshot> {
    return this.attempt((db) => {
      const read = db.transaction(() => {
        const rows = db
          .prepare(
            'SELECT position, format, message FROM rxagent_session_messages WHERE session_id = ? ORDER BY position',
          )
          .all(this.id) as MessageRow[];
        return { rows, version: this.version(db) };
      });
      const { rows, version } = read();
      const messages = rows.map((row) =>
        migrateMessage(JSON.parse(row.message), row.format, `session "${this.id}", message ${row.position}`),
      );
      return { messages, version };
    });
  }

  append(messages: readonly AgentMessage[], expectedVersion: number): Promise<number> {
    return this.attempt((db) => {
      checkSessionWrite('SqliteSession.append', messages, expectedVersion, true);
      return db
        .transaction(() => {
          this.check(db, expectedVersion);
          const next = db
            .prepare(
              'SELECT COALESCE(MAX(position) + 1, 0) AS next FROM rxagent_session_messages WHERE session_id = ?',
            )
            .get(this.id) as { next: number } | undefined;
          const start = next?.next ?? 0;
          const insert = db.prepare(
            'INSERT INTO rxagent_session_messages (session_id, position, format, message) VALUES (?, ?, ?, ?)',
          );
          messages.forEach((m, i) =>
            insert.run(this.id, start + i, MESSAGE_FORMAT_VERSION, JSON.stringify(m)),
          );
          return this.bump(db);
        })
        .immediate();
    });
  }

  clear(expectedVersion?: number): Promise<number> {
    return this.attempt((db) => {
      checkSessionWrite('SqliteSession.clear', undefined, expectedVersion, false);
      return db
        .transaction(() => {
          if (expectedVersion !== undefined) this.check(db, expectedVersion);
          db.prepare('DELETE FROM rxagent_session_messages WHERE session_id = ?').run(this.id);
          return this.bump(db);
        })
        .immediate();
    });
  }

  /** Closes the database when this session opened it (once a call has opened it). */
  close(): void {
    this.closed = true;
    if (!this.owned) return;
    this.db?.close();
    void this.opening?.then(
      (db) => db.close(),
      () => undefined,
    );
  }

  /** The open database: opened (and better-sqlite3 loaded) by the first call. */
  private open(): Promise<SqliteDatabase> {
    if (this.closed) return Promise.reject(new Error(`SqliteSession "${this.id}" is closed.`));
    if (this.db) return Promise.resolve(this.db);
    this.opening ??= loadSqlite()
      .then((Database) => {
        const db = this.prepare(new Database(this.database as string));
        if (this.closed) db.close();
        else this.db = db;
        return db;
      })
      .catch((error: unknown) => {
        this.opening = undefined; // the next call tries again (the file or the add-on may be fixed by then)
        throw error;
      });
    return this.opening;
  }

  private prepare(db: SqliteDatabase): SqliteDatabase {
    db.pragma(`busy_timeout = ${this.busyTimeoutMs}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec(SCHEMA);
    return db;
  }

  private attempt<T>(work: (db: SqliteDatabase) => T): Promise<T> {
    return this.open().then((db) => {
      if (this.closed) throw new Error(`SqliteSession "${this.id}" is closed.`);
      return work(db);
    });
  }

  private version(db: SqliteDatabase): number {
    const row = db.prepare('SELECT version FROM rxagent_sessions WHERE id = ?').get(this.id) as
      { version: number } | undefined;
    return row?.version ?? 0;
  }

  private check(db: SqliteDatabase, expected: number): void {
    const actual = this.version(db);
    if (actual !== expected) throw new SessionConflictError(this.id, expected, actual);
  }

  private bump(db: SqliteDatabase): number {
    const next = this.version(db) + 1;
    db.prepare(
      'INSERT INTO rxagent_sessions (id, version) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET version = excluded.version',
    ).run(this.id, next);
    return next;
  }
}

const USAGE = "new SqliteSession('./sessions.db', 'chat-42')";

function checkArguments(database: unknown, id: unknown): void {
  const isDatabase =
    typeof database === 'object' &&
    database !== null &&
    typeof (database as { prepare?: unknown }).prepare === 'function' &&
    typeof (database as { pragma?: unknown }).pragma === 'function';
  if (!(typeof database === 'string' && database !== '') && !isDatabase) {
    const got =
      typeof database === 'object' && database !== null
        ? `an object that is not a better-sqlite3 Database${'path' in database ? ' (pass its path as the first argument, not { path })' : ''}`
        : (JSON.stringify(database) ?? String(database));
    throw new AgentConfigError(
      `SqliteSession needs a database file path (or ':memory:') or an open better-sqlite3 Database, then the session id: ${USAGE}; received ${got}.`,
    );
  }
  if (typeof id !== 'string' || id === '') {
    throw new AgentConfigError(
      `SqliteSession needs the session's id (a non-empty string) as its second argument: ${USAGE}; received ${JSON.stringify(id) ?? String(id)}.`,
    );
  }
}
