import type { AgentMessage } from '../messages/types.js';

/**
 * A session's transcript and its version (see `Session`).
 *
 * @example
 * const { messages, version } = await session.load();
 */
export interface SessionSnapshot {
  messages: AgentMessage[];
  /** Grows by one with each append or clear; 0 for a session never written. */
  version: number;
}

/**
 * A conversation that outlives the process: a plain-JSON transcript with a version for
 * optimistic concurrency. A writer appends at the version it last saw; when another writer
 * got there first, the append fails with `SessionConflictError` and writes nothing.
 * `new Agent({ session })` loads it before its first run and appends each completed message.
 * Implementations: `InMemorySession` (core), `FileSession` and `SqliteSession`
 * (`@rxagent/sessions`).
 *
 * @example
 * const { messages, version } = await session.load();
 * const next = await session.append([userMessage('hi')], version); // SessionConflictError if someone else wrote
 */
export interface Session {
  /** Names the session in errors. */
  readonly id: string;
  /** The transcript and its version. */
  load(): Promise<SessionSnapshot>;
  /** Appends if the session is still at `expectedVersion`; resolves with the new version. */
  append(messages: readonly AgentMessage[], expectedVersion: number): Promise<number>;
  /** Empties the transcript (if still at `expectedVersion`, when given); resolves with the new version. */
  clear(expectedVersion?: number): Promise<number>;
}
