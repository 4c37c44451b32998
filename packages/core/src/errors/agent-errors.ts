import type { MessageSequenceIssue } from '../messages/message-sequence.js';
import { RxAgentError } from './rxagent-error.js';

/**
 * A model call failed with retryable errors more times than `maxRetries` allows.
 * `lastError` is the final failure; `errors` every attempt's.
 *
 * @example
 * runAgent(config).subscribe({ error: (e) => RetriesExhaustedError.isInstance(e) && console.error(e.lastError) });
 */
export class RetriesExhaustedError extends RxAgentError {
  static override readonly kind: string = 'RetriesExhaustedError';
  constructor(
    readonly attempts: number,
    readonly errors: unknown[],
  ) {
    const last = errors[errors.length - 1];
    const reason = (last instanceof Error ? last.message : String(last)).replace(/[.\s]+$/, '');
    super(
      `Model call failed after ${attempts} attempts: ${reason}. ` +
        'Check the provider status, or raise maxRetries.',
      { cause: last },
    );
  }
  get lastError(): unknown {
    return this.errors[this.errors.length - 1];
  }
}

/**
 * `Agent.prompt()` / `continue()` was called while a run is active.
 *
 * @example
 * try { await agent.prompt('hi'); } catch (e) { if (AgentBusyError.isInstance(e)) agent.followUp('hi'); }
 */
export class AgentBusyError extends RxAgentError {
  static override readonly kind: string = 'AgentBusyError';
  constructor(
    message = 'The agent is already running: use steer() or followUp() to queue messages, or await waitForIdle().',
  ) {
    super(message);
  }
}

/**
 * A `guardStop` guard escalated: the run fails instead of stopping.
 *
 * @example
 * runAgent({ model, prompt, guardStop: () => ({ escalate: true, reason: 'no answer' }) });
 */
export class StopGuardEscalationError extends RxAgentError {
  static override readonly kind: string = 'StopGuardEscalationError';
  constructor(readonly reason?: string) {
    super(`A stop guard escalated: the run was terminated${reason ? ` (${reason})` : ''}.`);
  }
}

/**
 * A transcript given to `importMessages` / `messages` is not valid; `issues` says where.
 *
 * @example
 * try { agent.importMessages(json); } catch (e) { if (InvalidTranscriptError.isInstance(e)) console.error(e.issues); }
 */
export class InvalidTranscriptError extends RxAgentError {
  static override readonly kind: string = 'InvalidTranscriptError';
  constructor(
    message: string,
    readonly issues: MessageSequenceIssue[] = [],
  ) {
    super(message);
  }
}

/**
 * The configuration cannot work (no model, a bad option value…); the message says what to change.
 *
 * @example
 * runAgent({ prompt: 'hi' } as never); // errors with AgentConfigError: "runAgent needs a model…"
 */
export class AgentConfigError extends RxAgentError {
  static override readonly kind: string = 'AgentConfigError';
}

/**
 * A model stream emitted something that is not a `ModelEvent`.
 *
 * @example
 * throw new InvalidModelEventError('Model emitted a value without a "type": 42');
 */
export class InvalidModelEventError extends RxAgentError {
  static override readonly kind: string = 'InvalidModelEventError';
}
