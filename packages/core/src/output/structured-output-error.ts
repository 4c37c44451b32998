import type { ArgumentIssue } from '../tools/validate-args.js';
import { clip } from '../util/clip.js';
import { RxAgentError } from '../errors/rxagent-error.js';

/**
 * The model's final answer did not match the run's `output` schema after every retry (or the
 * model refused). `text` is its last answer as given (the JSON text, or a `final_answer`
 * call's arguments), `issues` what was wrong with it, `attempts` how many answers were tried.
 *
 * @example
 * runAgent({ model, prompt, output: schema }).subscribe({
 *   error: (e) => StructuredOutputError.isInstance(e) && console.error(e.issues, e.text),
 * });
 */
export class StructuredOutputError extends RxAgentError {
  static override readonly kind: string = 'StructuredOutputError';
  constructor(
    readonly text: string,
    readonly issues: readonly ArgumentIssue[],
    readonly attempts: number,
  ) {
    const listed = issues
      .slice(0, 5)
      .map((i) => `${i.path || '(root)'}: ${i.message}`)
      .join('; ');
    super(
      `The model's answer did not match the output schema after ${attempts} attempt${attempts === 1 ? '' : 's'} ` +
        `(${clip(listed, 500)}). Make the schema easier to follow, describe its fields, or raise maxOutputRetries.`,
    );
  }
}
