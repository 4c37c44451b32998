import { AgentConfigError } from '../errors/agent-errors.js';

const shown = (value: unknown): string =>
  typeof value === 'string'
    ? JSON.stringify(value)
    : typeof value === 'object' && value !== null
      ? 'an object'
      : String(value);

/**
 * Checks the arguments of a session write, the same way in every store: `messages` an array,
 * the expected version a whole number from 0 (optional for `clear`). A bad call throws an
 * `AgentConfigError` saying what to pass; nothing is written.
 *
 * @example
 * checkSessionWrite('InMemorySession.append', messages, expectedVersion, true);
 */
export function checkSessionWrite(
  method: string,
  messages: unknown,
  expectedVersion: unknown,
  versionRequired: boolean,
): void {
  if (messages !== undefined && !Array.isArray(messages)) {
    throw new AgentConfigError(
      `${method} needs messages as an array of messages; received ${shown(messages)}.`,
    );
  }
  if (expectedVersion === undefined && !versionRequired) return;
  if (typeof expectedVersion !== 'number' || !Number.isInteger(expectedVersion) || expectedVersion < 0) {
    throw new AgentConfigError(
      `${method} needs the expected version: the session's version as load() or the last write returned it ` +
        `(a whole number from 0), so that a write made from a stale view is refused; received ${shown(expectedVersion)}.`,
    );
  }
}
