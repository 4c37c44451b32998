import { RxAgentError } from '@rxagent/core';

/**
 * An AG-UI request rxagent cannot run: the body is not a `RunAgentInput`, a message cannot be
 * turned into an rxagent message, or a `resume` answers no interrupt that waits on the thread.
 * The message says what to fix; the endpoint answers it with status 400 and runs nothing.
 *
 * @example
 * try { toAgentMessages([{ id: '1', role: 'tool', toolCallId: 'x', content: 'ok' }]); } catch (e) { AGUIInputError.isInstance(e); } // true
 */
export class AGUIInputError extends RxAgentError {
  static override readonly kind: string = 'AGUIInputError';
}
