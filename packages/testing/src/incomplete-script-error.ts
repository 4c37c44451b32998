import { RxAgentError } from '@rxagent/core';

/**
 * `assertComplete()` found scripted steps the run never used: the run made fewer model calls than
 * scripted (it stopped early, or the code under test changed).
 *
 * @example
 * try { model.assertComplete(); } catch (e) { if (IncompleteScriptError.isInstance(e)) console.log(e.unused); }
 */
export class IncompleteScriptError extends RxAgentError {
  static override readonly kind: string = 'IncompleteScriptError';
  constructor(
    /** What was scripted (`scriptedModel`) or recorded (`cassetteModel`). */
    readonly what: string,
    /** The 1-based numbers of the unused steps. */
    readonly unused: readonly number[],
  ) {
    super(
      `${what}: step(s) ${unused.join(', ')} of ${what.includes('cassette') ? 'the recording' : 'the script'} were never used — ` +
        'the run made fewer model calls than expected. Check why it stopped early, or remove the steps.',
    );
  }
}
