import { concat, of } from 'rxjs';
import { validateLlmStepOptions } from './validate-operator-options.js';
import { PipelineError } from '../errors/pipeline-error.js';
import type { LoopOperator } from '../turn/loop-item.js';
import type { RetryBackoff } from '../turn/run-config.js';
import type { ChatModel, ChatRequest } from '../model/chat-model.js';
import { callModel } from './call-model.js';
import { checkSequence } from './check-sequence.js';
import { withActivatedTools } from './deferred-tool-specs.js';
import { turnOperator } from './turn-operator.js';

/**
 * Options of `llmStep`; each defaults to the run's config.
 *
 * @example
 * llmStep(undefined, { maxRetries: 1, retryBackoff: { initialDelayMs: 250 }, request: { temperature: 0 } });
 */
export interface LlmStepOptions {
  maxRetries?: number;
  retryBackoff?: RetryBackoff;
  /** Fields merged into every request (after the run's own). */
  request?: Partial<Omit<ChatRequest, 'messages'>>;
}

// Shared by every llmStep() given no options (a pending run's model call holds them).
const NO_OPTIONS: LlmStepOptions = Object.freeze({});

/**
 * Calls the model once per turn and streams its message: `message-start`, a
 * `message-update` per delta, `message-end`, then the turn with the message. Retryable
 * failures are retried with backoff on the scheduler (each announced by a `retry` event, the
 * partial message discarded); a context overflow is handed once to `compactContext`; a stop
 * on the output limit with no tool call asks the model to continue (at most 3 times a run).
 * The messages are validated and repaired before the call. Tools run only after the message
 * is complete, so a retry never repeats a tool.
 *
 * @param model The model to call (default: the run's `model`).
 * @param options Retry and request overrides.
 * @return A loop operator.
 *
 * @example
 * runAgent({ model, prompt, pipeline: (turn$) => turn$.pipe(llmStep(fastModel, { maxRetries: 1 }), executeTools()) });
 */
export function llmStep(model?: ChatModel, options: LlmStepOptions = NO_OPTIONS): LoopOperator {
  validateLlmStepOptions(options);
  return turnOperator('llmStep', (turn) => {
    if (turn.stop && !turn.assistant) return of(turn); // stopped before its model call (an input guardrail)
    if (turn.assistant) {
      throw new PipelineError(
        "llmStep() received a turn that already has the model's message: a pipeline calls the model " +
          'once per turn, so keep a single llmStep() in it.',
      );
    }
    const active = withActivatedTools(turn);
    const { messages, warning } = checkSequence(active);
    const call$ = callModel(active, model ?? turn.run.model, messages, options);
    return warning ? concat(of(warning), call$) : call$;
  });
}
