import type { AgentMessage } from '../messages/types.js';
import type { Session } from '../session/session.js';

/**
 * Keeps an `Agent`'s transcript and its session in step: loads the session before the first
 * run (and again after a failed write), then appends each message the transcript gains, in
 * order, one write at a time. The first failed write (a `SessionConflictError` when another
 * writer got there first) stops the writing; `flush()` reports it once.
 */
export class SessionSync {
  private version = 0;
  /** How many messages of the agent's transcript the session holds. */
  private persisted = 0;
  private current = false;
  private writes: Promise<void> = Promise.resolve();
  private failure?: { error: unknown };

  constructor(
    readonly session: Session,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  /** True when the agent's transcript is the session's (no load needed). */
  get isCurrent(): boolean {
    return this.current && !this.failure;
  }

  /** Loads the session (after pending writes), giving the transcript to start from. */
  async load(): Promise<AgentMessage[]> {
    await this.writes;
    const { messages, version } = await this.session.load();
    this.version = version;
    this.persisted = messages.length;
    this.failure = undefined;
    this.current = true;
    return messages;
  }

  /** Appends what `transcript` has beyond what the session holds (a transcript that shrank is rewritten). */
  sync(transcript: readonly AgentMessage[]): void {
    if (!this.current || this.failure) return;
    if (transcript.length < this.persisted) return this.replace(transcript);
    if (transcript.length === this.persisted) return;
    const added = transcript.slice(this.persisted);
    this.persisted = transcript.length;
    this.write(async () => {
      this.version = await this.session.append(added, this.version);
    });
  }

  /** Makes the session hold exactly `transcript` (import, reset, a repaired transcript). */
  replace(transcript: readonly AgentMessage[]): void {
    if (!this.current || this.failure) return;
    const all = transcript.slice();
    this.persisted = all.length;
    this.write(async () => {
      this.version = await this.session.clear(this.version);
      if (all.length > 0) this.version = await this.session.append(all, this.version);
    });
  }

  /** Waits for the writes so far; rejects (once) with the first failure. */
  async flush(): Promise<void> {
    await this.writes;
    const failure = this.failure;
    if (failure && this.current) {
      // Reported once; the next run loads the session again.
      this.current = false;
      throw failure.error;
    }
  }

  private write(work: () => Promise<void>): void {
    this.writes = this.writes.then(async () => {
      if (this.failure) return;
      try {
        await work();
      } catch (error) {
        this.failure = { error };
        this.onFailure(error);
      }
    });
  }
}
