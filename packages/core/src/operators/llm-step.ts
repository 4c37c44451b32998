import type { LoopOperator } from '../loop/loop-event.js';
import type { RetryBackoff } from '../loop/run-config.js';
import type { ChatModel, ChatRequest } from '../model/chat-model.js';
import { LlmTurn } from './llm-turn.js';
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

/**
 * Calls the model once per turn and streams its message: `message-start`, a
 * `message-update` per delta, `message-end`. Retryable failures are retried with backoff on
 * the scheduler (each announced by a `retry` event, the partial message discarded); a
 * context overflow is handed once to `compactContext`; a stop on the output limit with no
 * tool call asks the model to continue (at most 3 times a run). The transcript is validated
 * and repaired before every call. Tools run only after the message is complete, so a failed
 * call never has tools of its own turn behind it and a retry never repeats a tool.
 *
 * @param model The model to call (default: the run's `model`).
 * @param options Retry and request overrides.
 * @return A loop operator.
 *
 * @example
 * runAgent({ model, prompt, pipeline: (turn$) => turn$.pipe(llmStep(fastModel, { maxRetries: 1 }), executeTools()) });
 */
export function llmStep(model?: ChatModel, options: LlmStepOptions = {}): LoopOperator {
  return turnOperator((turn, io) => new LlmTurn(turn, io, model ?? turn.run.model, options).start());
}
