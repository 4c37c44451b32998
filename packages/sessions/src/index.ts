export { FileSession } from './file-session.js';
export type { FileSessionOptions } from './file-session.js';
export { SqliteSession } from './sqlite-session.js';
export type { SqliteSessionOptions } from './sqlite-session.js';
export type { SqliteDatabase, SqliteStatement, SqliteTransaction } from './sqlite-database.js';
export { SqliteAddonError } from './sqlite-addon-error.js';
export { MESSAGE_FORMAT_VERSION, migrateMessage } from './message-format.js';
export { SessionFormatError } from './session-errors.js';
