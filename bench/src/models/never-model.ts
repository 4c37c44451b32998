import { Observable } from 'rxjs';
import type { ChatModel, ModelEvent } from '@rxagent/core';

/** A model that never answers, and counts its open streams. */
export interface NeverModel extends ChatModel {
  /** Streams subscribed and not yet torn down. */
  readonly live: number;
  /** Streams ever subscribed. */
  readonly subscribed: number;
}

/**
 * A model whose streams never emit: a run on it stays pending until unsubscribed. Its
 * teardown counts, so a leak check can see that every stream was released.
 *
 * @example
 * const model = neverModel();
 * const sub = runAgent({ model, prompt: 'hi' }).subscribe();
 * sub.unsubscribe(); // model.live === 0
 */
export function neverModel(): NeverModel {
  let live = 0;
  let subscribed = 0;
  return {
    provider: 'memory',
    modelId: 'never-model',
    get live() {
      return live;
    },
    get subscribed() {
      return subscribed;
    },
    stream: () =>
      new Observable<ModelEvent>(() => {
        live++;
        subscribed++;
        return () => {
          live--;
        };
      }),
  };
}
