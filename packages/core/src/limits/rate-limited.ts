import { defer, finalize, switchMap, tap, type Observable } from 'rxjs';
import { RateLimitError } from '../errors/provider-errors.js';
import type { ChatModel, ChatRequest } from '../model/chat-model.js';
import type { ModelEvent } from '../model/model-event.js';
import type { LimiterPriority } from './admission-queue.js';
import type { Limiter } from './limiter.js';
import type { LimiterLease } from './limiter-lease.js';

/**
 * Options of `rateLimited`.
 *
 * @example
 * const options: RateLimitedOptions = { key: runId, priority: 'background' };
 */
export interface RateLimitedOptions {
  /**
   * Whose calls these are: calls of different keys take turns in the queue. Give each run its
   * own (its sub-runs may share it); default: a key of this wrapper alone.
   */
  key?: string | symbol;
  /** `'interactive'` (default) calls are admitted before any `'background'` one. */
  priority?: LimiterPriority;
}

/** Reports what the call's stream says to its lease: headers, usage, a 429, its end. */
function underLease(stream: Observable<ModelEvent>, lease: LimiterLease): Observable<ModelEvent> {
  let completed = false;
  return stream.pipe(
    tap({
      next: (event) => {
        if (event?.type === 'rate-limit') lease.headers(event.limits, event.ignored);
        else if (event?.type === 'usage') lease.usage(event.usage);
        else if (event?.type === 'finish' && event.message?.usage) lease.usage(event.message.usage);
      },
      error: (error: unknown) => {
        if (RateLimitError.isInstance(error)) lease.rateLimited(error.retryAfterMs);
      },
      complete: () => (completed = true),
    }),
    finalize(() => lease.release(completed)),
  );
}

/**
 * A `ChatModel` whose calls wait for admission by `limits` before they are sent, and hold its
 * capacity only while they stream. The events pass through unchanged (the `rate-limit` event
 * too); the limiter reads the call's headers, usage and 429s from them. The core's retries go
 * through the limiter again, so a retry waits its turn. Unsubscribing a waiting call leaves the
 * queue.
 *
 * @example
 * const limits = limiter({ inputTokensPerMinute: 30_000, concurrency: 8 });
 * const model = rateLimited(openai('gpt-4o-mini'), limits, { key: 'run-1' });
 * runAgent({ model, prompt: 'Hello' }).subscribe();
 */
export function rateLimited(model: ChatModel, limits: Limiter, options: RateLimitedOptions = {}): ChatModel {
  const key = options.key ?? Symbol(`${model.provider}/${model.modelId}`);
  const priority = options.priority ?? 'interactive';
  return {
    get provider() {
      return model.provider;
    },
    get modelId() {
      return model.modelId;
    },
    stream: (request: ChatRequest) =>
      defer(() => limits.acquire({ inputTokens: limits.estimate(request), key, priority })).pipe(
        switchMap((lease) =>
          underLease(
            defer(() => model.stream(request)),
            lease,
          ),
        ),
      ),
  };
}
