import type { Message } from '../messages/types.js';
import { RxAgentError } from './rxagent-error.js';

/**
 * The context could not be compacted (the summary call failed after its retries). The run
 * errors with it instead of sending a context that does not fit; the transcript is left as
 * it was, and `transcript` holds the uncompacted messages, so nothing is lost.
 *
 * @example
 * agent.prompt('Go on').catch((e) => ContextCompactionError.isInstance(e) && console.error(e.message, e.transcript.length));
 */
export class ContextCompactionError extends RxAgentError {
  static override readonly kind: string = 'ContextCompactionError';
  constructor(
    message: string,
    /** The messages that were to be compacted, unchanged. */
    readonly transcript: readonly Message[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
