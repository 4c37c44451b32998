import { RxAgentError } from '@rxagent/core';

/**
 * A stored session cannot be read: written by a newer rxagent, or a record of an unknown
 * shape. `where` names the file (and line) or the database row.
 *
 * @example
 * try { await session.load(); } catch (e) { if (SessionFormatError.isInstance(e)) console.error(e.where); }
 */
export class SessionFormatError extends RxAgentError {
  static override readonly kind: string = 'SessionFormatError';
  constructor(
    readonly where: string,
    problem: string,
  ) {
    super(`Cannot read the session at ${where}: ${problem}`);
  }
}
