import { RxAgentError } from './rxagent-error.js';

/**
 * A snapshot cannot be resumed as given: it was written by another format version, it is not a
 * snapshot, or it names something (a tool, a guardrail, a context manager, an output schema, a
 * custom pipeline) that the resuming config does not supply. The message names it and what to
 * pass. Thrown when the resumed run is subscribed, before any model call.
 *
 * @example
 * resumeRun(snapshot, { model }).subscribe({ error: (e) => RunSnapshotError.isInstance(e) && console.error(e.message) });
 */
export class RunSnapshotError extends RxAgentError {
  static override readonly kind: string = 'RunSnapshotError';
}
