import { RxAgentError } from '@rxagent/core';

/**
 * `SqliteSession` was asked to open a database file but the optional native add-on
 * `better-sqlite3` is not installed, or is installed without its compiled binary. The message
 * says how to add it; `FileSession` needs nothing native.
 *
 * @example
 * await session.load().catch((e) => { if (SqliteAddonError.isInstance(e)) console.error(e.message); });
 */
export class SqliteAddonError extends RxAgentError {
  static override readonly kind: string = 'SqliteAddonError';
}
