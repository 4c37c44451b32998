/**
 * A prepared statement, as `SqliteSession` uses it (better-sqlite3's `Statement` fits).
 *
 * @example
 * const row = db.prepare('SELECT version FROM rxagent_sessions WHERE id = ?').get('chat');
 */
export interface SqliteStatement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/**
 * A function run in one transaction (better-sqlite3's `Transaction`): call it for a deferred
 * transaction, `.immediate()` to take the write lock first.
 *
 * @example
 * const bump = db.transaction(() => 1);
 * bump.immediate();
 */
export interface SqliteTransaction<R> {
  (): R;
  immediate(): R;
}

/**
 * What `SqliteSession` needs of an open database: an open better-sqlite3 `Database` fits. The
 * package's types stand alone, so they compile without `@types/better-sqlite3` (and without
 * better-sqlite3 installed: it is an optional add-on, loaded when a session opens a file).
 *
 * @example
 * import Database from 'better-sqlite3';
 * const db: SqliteDatabase = new Database('./sessions.db');
 * const session = new SqliteSession(db, 'chat');
 */
export interface SqliteDatabase {
  pragma(source: string): unknown;
  exec(source: string): unknown;
  prepare(source: string): SqliteStatement;
  transaction<R>(fn: () => R): SqliteTransaction<R>;
  close(): unknown;
}

/**
 * The constructor of better-sqlite3's `Database` (its module's default export).
 *
 * @example
 * const open: SqliteDatabaseConstructor = (await import('better-sqlite3')).default;
 */
export type SqliteDatabaseConstructor = new (filename: string) => SqliteDatabase;
