import { RxAgentError } from './rxagent-error.js';

/**
 * A run's pipeline misused the turn: it dropped it, passed it on twice, replaced it with a
 * copy, or put an operator where it lacks what it needs (`executeTools()` before `llmStep()`).
 * The message names the operator and says how to fix the pipeline. The run fails with it
 * instead of hanging or silently doing nothing.
 *
 * @example
 * runAgent({ model, prompt, pipeline: (t$) => t$.pipe(llmStep(), filter((i) => i.type !== 'turn')) })
 *   .subscribe({ error: (e) => PipelineError.isInstance(e) && console.error(e.message) });
 */
export class PipelineError extends RxAgentError {
  static override readonly kind: string = 'PipelineError';
}
