import {
  ContextCompactionError,
  ProviderError,
  RateLimitError,
  userMessage,
  type AgentEvent,
  type ChatModel,
  type Message,
  type Usage,
} from '@rxagent/core';
import { serializeError } from '@rxagent/core/provider';
import {
  catchError,
  concat,
  defer,
  EMPTY,
  mergeMap,
  of,
  throwError,
  timer,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import { CHARS_PER_TOKEN } from './estimate-tokens.js';
import { SUMMARY_SYSTEM } from './summary-prompt.js';

/**
 * What a summary call ends with.
 *
 * @example
 * const done: SummaryDone = { type: 'summary-done', text: '## Goal\n…', usage };
 */
export interface SummaryDone {
  type: 'summary-done';
  text: string;
  usage?: Usage;
}

export interface SummaryCallOptions {
  scheduler: SchedulerLike;
  maxRetries: number;
  initialDelayMs: number;
  maxTokens: number;
  /** The transcript the summary was for (kept in the error when it fails). */
  transcript: readonly Message[];
}

/**
 * A summary cut to `maxTokens` (in estimated tokens), with a note saying so: a model may write
 * more than the output limit it was asked for, and the checkpoint must stay within its budget.
 *
 * @example
 * clipSummary('## Goal\n…', 2_048); // unchanged when it is under 8,192 characters
 */
export function clipSummary(text: string, maxTokens: number): string {
  const maxChars = maxTokens * CHARS_PER_TOKEN;
  if (text.length <= maxChars) return text;
  const note = `\n[… summary cut at ${maxTokens} tokens: the summary model wrote more than asked]`;
  return note.length * 2 <= maxChars
    ? `${text.slice(0, maxChars - note.length)}${note}`
    : text.slice(0, maxChars);
}

/**
 * One attempt: the model's text deltas as `summary-update` (up to the summary's budget), then
 * the finished text, clipped to its budget.
 */
function attempt(model: ChatModel, prompt: string, maxTokens: number): Observable<AgentEvent | SummaryDone> {
  return defer(() => {
    const maxChars = maxTokens * CHARS_PER_TOKEN;
    let text = '';
    let finished: SummaryDone | undefined;
    return concat(
      model.stream({ system: SUMMARY_SYSTEM, messages: [userMessage(prompt)], maxTokens }).pipe(
        mergeMap((event): Observable<AgentEvent> => {
          if (event.type === 'text-delta') {
            // Past the budget, the deltas are dropped: they would not be in the checkpoint.
            const delta = event.text.slice(0, Math.max(0, maxChars - text.length));
            text += delta;
            return delta ? of({ type: 'summary-update', delta }) : EMPTY;
          }
          if (event.type === 'finish') {
            const parts = event.message.content.filter((p) => p.type === 'text');
            const final = parts.length > 0 ? parts.map((p) => p.text).join('') : text;
            finished = {
              type: 'summary-done',
              text: clipSummary(final, maxTokens),
              usage: event.message.usage,
            };
          }
          return EMPTY;
        }),
      ),
      defer(() => {
        if (!finished) {
          return throwError(
            () =>
              new ProviderError('The summary stream ended without a finish event.', {
                retryable: true,
                provider: model.provider,
              }),
          );
        }
        if (!finished.text.trim()) {
          return throwError(
            () =>
              new ProviderError('The summary model answered with no text.', {
                retryable: true,
                provider: model.provider,
              }),
          );
        }
        return of(finished);
      }),
    );
  });
}

function delayOf(error: unknown, retry: number, initialDelayMs: number): number {
  if (RateLimitError.isInstance(error) && error.retryAfterMs !== undefined)
    return Math.min(error.retryAfterMs, 60_000);
  return Math.min(initialDelayMs * 2 ** (retry - 1), 60_000);
}

/**
 * A summary call: streams `summary-update` events, ends with `SummaryDone`. Retryable
 * failures (the provider says so, or a stream without its finish) are retried with backoff on
 * the scheduler, each announced by a `retry` event; then — or on any other failure — it
 * errors with `ContextCompactionError`, keeping the transcript it was for. Unsubscribing
 * cancels the model's stream.
 *
 * @example
 * summaryCall(model, prompt, { scheduler, maxRetries: 2, initialDelayMs: 1000, maxTokens: 2048, transcript }).subscribe(console.log);
 */
export function summaryCall(
  model: ChatModel,
  prompt: string,
  options: SummaryCallOptions,
): Observable<AgentEvent | SummaryDone> {
  const run = (retry: number): Observable<AgentEvent | SummaryDone> =>
    attempt(model, prompt, options.maxTokens).pipe(
      catchError((error: unknown) => {
        const retryable = ProviderError.isInstance(error) && error.retryable;
        if (retryable && retry < options.maxRetries) {
          const delayMs = delayOf(error, retry + 1, options.initialDelayMs);
          return concat(
            of<AgentEvent>({ type: 'retry', attempt: retry + 1, delayMs, error: serializeError(error) }),
            timer(delayMs, options.scheduler).pipe(mergeMap(() => run(retry + 1))),
          );
        }
        const reason = error instanceof Error ? error.message : String(error);
        return throwError(
          () =>
            new ContextCompactionError(
              `The context summary call to ${model.provider}/${model.modelId} failed after ${retry + 1} attempt(s): ${reason} ` +
                'The transcript was kept as it was. Check the summary model, or give contextEngine a summaryModel that works.',
              options.transcript,
              { cause: error },
            ),
        );
      }),
    );
  return run(0);
}
