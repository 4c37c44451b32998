import Database from 'better-sqlite3';
import {
  AgentConfigError,
  SessionConflictError,
  type AgentMessage,
  type Session,
  type SessionSnapshot,
} from '@rxagent/core';
import { checkSessionWrite } from '@rxagent/core/provider';
import { MESSAGE_FORMAT_VERSION, migrateMessage } from './message-format.js';

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
 * A session in a SQLite database (through `better-sqlite3`), many sessions per file. Each
 * append or clear is one `BEGIN IMMEDIATE` transaction that checks the version first, so two
 * processes writing one session get `SessionConflictError` for the second write and the
 * transcript never interleaves; a crash mid-write rolls the transaction back. WAL journal,
 * `synchronous = FULL`: a resolved append is on disk. Each stored message keeps its format
 * version, so rows written by an older version still load. Calls are synchronous underneath
 * (better-sqlite3), wrapped in Promises.
 *
 * @example
 * const db = new SqliteSession('./sessions.db', 'chat-42');
 * const agent = new Agent({ model, session: db });
 * await agent.prompt('Hi');
 * db.close();
 */
export class SqliteSession implements Session {
  private readonly db: Database.Database;
  private readonly owned: boolean;

  /**
   * @param database A file path (or `:memory:`), or an open better-sqlite3 database (left open by `close`).
   * @param id The session's id in the database.
   */
  constructor(
    database: string | Database.Database,
    readonly id: string,
    options: SqliteSessionOptions = {},
  ) {
    checkArguments(database, id);
    this.owned = typeof database === 'string';
    this.db = typeof database === 'string' ? new Database(database) : database;
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.exec(SCHEMA);
  }

  load(): Promise<SessionSnapshot> {
    return attempt(() => {
      const read = this.db.transaction(() => {
        const rows = this.db
          .prepare<[string], MessageRow>(
            'SELECT position, format, message FROM rxagent_session_messages WHERE session_id = ? ORDER BY position',
          )
          .all(this.id);
        return { rows, version: this.version() };
      });
      const { rows, version } = read();
      const messages = rows.map((row) =>
        migrateMessage(JSON.parse(row.message), row.format, `session "${this.id}", message ${row.position}`),
      );
      return { messages, version };
    });
  }

  append(messages: readonly AgentMessage[], expectedVersion: number): Promise<number> {
    return attempt(() => {
      checkSessionWrite('SqliteSession.append', messages, expectedVersion, true);
      return this.db
        .transaction(() => {
          this.check(expectedVersion);
          const start =
            this.db
              .prepare<[string], { next: number }>(
                'SELECT COALESCE(MAX(position) + 1, 0) AS next FROM rxagent_session_messages WHERE session_id = ?',
              )
              .get(this.id)?.next ?? 0;
          const insert = this.db.prepare(
            'INSERT INTO rxagent_session_messages (session_id, position, format, message) VALUES (?, ?, ?, ?)',
          );
          messages.forEach((m, i) =>
            insert.run(this.id, start + i, MESSAGE_FORMAT_VERSION, JSON.stringify(m)),
          );
          return this.bump();
        })
        .immediate();
    });
  }

  clear(expectedVersion?: number): Promise<number> {
    return attempt(() => {
      checkSessionWrite('SqliteSession.clear', undefined, expectedVersion, false);
      return this.db
        .transaction(() => {
          if (expectedVersion !== undefined) this.check(expectedVersion);
          this.db.prepare('DELETE FROM rxagent_session_messages WHERE session_id = ?').run(this.id);
          return this.bump();
        })
        .immediate();
    });
  }

  /** Closes the database when this session opened it. */
  close(): void {
    if (this.owned) this.db.close();
  }

  private version(): number {
    const row = this.db
      .prepare<[string], { version: number }>('SELECT version FROM rxagent_sessions WHERE id = ?')
      .get(this.id);
    return row?.version ?? 0;
  }

  private check(expected: number): void {
    const actual = this.version();
    if (actual !== expected) throw new SessionConflictError(this.id, expected, actual);
  }

  private bump(): number {
    const next = this.version() + 1;
    this.db
      .prepare(
        'INSERT INTO rxagent_sessions (id, version) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET version = excluded.version',
      )
      .run(this.id, next);
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

function attempt<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}
