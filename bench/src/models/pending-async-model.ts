import { from, Observable } from 'rxjs';
import type { ChatModel, ModelEvent } from '@rxagent/core';

/** A model whose streams wait forever on an async generator, and counts them. */
export interface PendingAsyncModel extends ChatModel {
  /** Streams subscribed (each one's generator started). */
  readonly opened: number;
  /** Streams subscribed and not yet torn down. */
  readonly live: number;
}

/**
 * An async generator waiting for a first event that never comes, like an SDK stream reading
 * a socket that stays silent; the wait ends (with the signal's reason) when `signal` aborts.
 *
 * @example
 * const controller = new AbortController();
 * from(pendingEvents(controller.signal)).subscribe(); // pending until controller.abort()
 */
export async function* pendingEvents(signal: AbortSignal): AsyncGenerator<ModelEvent> {
  yield await new Promise<ModelEvent>((_, reject) =>
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true }),
  );
}

/**
 * A model whose every stream is `from(pendingEvents(signal))`, the signal aborted when the
 * stream is unsubscribed, as an adapter aborts its request: a run on it stays pending on an
 * asynchronous source until it is unsubscribed. Counts the streams it opened and those still
 * open.
 *
 * @example
 * const model = pendingAsyncModel();
 * const sub = runAgent({ model, prompt: 'hi' }).subscribe();
 * sub.unsubscribe(); // model.live === 0
 */
export function pendingAsyncModel(): PendingAsyncModel {
  let opened = 0;
  let live = 0;
  return {
    provider: 'memory',
    modelId: 'pending-async-model',
    get opened() {
      return opened;
    },
    get live() {
      return live;
    },
    stream: () =>
      new Observable<ModelEvent>((subscriber) => {
        opened++;
        live++;
        const controller = new AbortController();
        from(pendingEvents(controller.signal)).subscribe(subscriber);
        return () => {
          live--;
          controller.abort();
        };
      }),
  };
}
