import type { SqliteDatabaseConstructor } from './sqlite-database.js';
import { SqliteAddonError } from './sqlite-addon-error.js';

const INSTALL =
  'install it next to @rxagent/sessions (npm install better-sqlite3@^12, a native add-on: a prebuilt binary, or a C++ build when none fits), or use FileSession, which needs nothing native';

function isMissing(error: unknown, specifier: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes(specifier)
  );
}

/**
 * Loads better-sqlite3's `Database` constructor the first time a `SqliteSession` opens a file
 * (never when the package is imported), and checks that its native binary loads.
 *
 * @param specifier The module to load (tests give one that is not installed).
 * @return The constructor; rejects with `SqliteAddonError` saying how to install or build it.
 *
 * @example
 * const Database = await loadSqlite();
 * const db = new Database('./sessions.db');
 */
export async function loadSqlite(specifier = 'better-sqlite3'): Promise<SqliteDatabaseConstructor> {
  let loaded: { default?: unknown };
  try {
    // A specifier in a variable: bundlers leave the optional add-on out, TypeScript needs no types for it.
    loaded = (await import(specifier)) as { default?: unknown };
  } catch (error) {
    if (isMissing(error, specifier)) {
      throw new SqliteAddonError(
        `SqliteSession needs the optional add-on ${specifier}, which is not installed: ${INSTALL}.`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
  const Database = (
    typeof loaded.default === 'function' ? loaded.default : loaded
  ) as SqliteDatabaseConstructor;
  try {
    new Database(':memory:').close();
  } catch (error) {
    throw new SqliteAddonError(
      `${specifier} is installed but its native binary does not load (${(error as Error).message.split('\n')[0]}): ` +
        `rebuild it (npm rebuild ${specifier}; with pnpm 10, allow its build with pnpm approve-builds), or use FileSession.`,
      { cause: error },
    );
  }
  return Database;
}
