import type { AgentConfigError } from '../errors/agent-errors.js';
import { SessionConflictError } from '../errors/session-conflict-error.js';
import { checkSessionWrite } from './check-session-write.js';
import type { AgentMessage } from '../messages/types.js';
import type { Session, SessionSnapshot } from './session.js';

/** A JSON copy: a session stores plain JSON, so nothing of the caller's objects is shared. */
function copy(messages: readonly AgentMessage[]): AgentMessage[] {
  return JSON.parse(JSON.stringify(messages)) as AgentMessage[];
}

/**
 * A session kept in memory (tests, one process, a cache in front of a store). It keeps
 * JSON copies, and checks versions like the durable stores.
 *
 * @example
 * const session = new InMemorySession('chat-1');
 * const agent = new Agent({ model, session });
 * await agent.prompt('Hi');
 * (await session.load()).messages.length; // 2
 */
export class InMemorySession implements Session {
  private messages: AgentMessage[] = [];
  private version = 0;

  constructor(readonly id = 'memory') {}

  load(): Promise<SessionSnapshot> {
    return Promise.resolve({ messages: copy(this.messages), version: this.version });
  }

  append(messages: readonly AgentMessage[], expectedVersion: number): Promise<number> {
    const bad = misuse(() => checkSessionWrite('InMemorySession.append', messages, expectedVersion, true));
    if (bad) return Promise.reject(bad);
    if (expectedVersion !== this.version) {
      return Promise.reject(new SessionConflictError(this.id, expectedVersion, this.version));
    }
    this.messages.push(...copy(messages));
    return Promise.resolve(++this.version);
  }

  clear(expectedVersion?: number): Promise<number> {
    const bad = misuse(() => checkSessionWrite('InMemorySession.clear', undefined, expectedVersion, false));
    if (bad) return Promise.reject(bad);
    if (expectedVersion !== undefined && expectedVersion !== this.version) {
      return Promise.reject(new SessionConflictError(this.id, expectedVersion, this.version));
    }
    this.messages = [];
    return Promise.resolve(++this.version);
  }
}

function misuse(check: () => void): AgentConfigError | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    return error as AgentConfigError;
  }
}
