import { RxAgentError } from './rxagent-error.js';

/**
 * Another writer changed the session since this one last read it: nothing was written.
 * Load the session again (an `Agent` does so before its next run) and retry.
 *
 * @example
 * try { await session.append(messages, version); } catch (e) { if (SessionConflictError.isInstance(e)) version = (await session.load()).version; }
 */
export class SessionConflictError extends RxAgentError {
  static override readonly kind: string = 'SessionConflictError';
  constructor(
    readonly sessionId: string,
    readonly expectedVersion: number,
    readonly actualVersion: number,
  ) {
    super(
      `Session "${sessionId}" was written by someone else: expected version ${expectedVersion}, found ${actualVersion}. ` +
        'Nothing was written; load the session again and retry (one writer per session at a time).',
    );
  }
}
