import { from } from 'rxjs';
import type { ChatModel, ModelEvent } from '@rxagent/core';

/** How often the asynchronous source yields to the event loop (every this many events). */
export const ASYNC_YIELD_EVERY = 8;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The events of the array one by one from an async generator that gives the event loop a
 * turn (`setImmediate`) every `yieldEvery` events, as a real SDK stream does between the
 * chunks it reads from the socket (each chunk holding a few events).
 *
 * @example
 * for await (const event of asyncEvents(textDeltaEvents(1000))) count++;
 */
export async function* asyncEvents(
  events: readonly ModelEvent[],
  yieldEvery = ASYNC_YIELD_EVERY,
): AsyncGenerator<ModelEvent> {
  for (let i = 0; i < events.length; i++) {
    if (i > 0 && i % yieldEvery === 0) await nextTurn();
    yield events[i] as ModelEvent;
  }
}

/**
 * An in-memory model whose every call streams `events` asynchronously:
 * `from(asyncEvents(events))`, the way an adapter wraps an SDK's async iterable.
 *
 * @example
 * await lastValueFrom(runAgent({ model: asyncArrayModel(textDeltaEvents(1000)), prompt: 'go' }));
 */
export function asyncArrayModel(events: readonly ModelEvent[], yieldEvery = ASYNC_YIELD_EVERY): ChatModel {
  return {
    provider: 'memory',
    modelId: 'async-array-model',
    stream: () => from(asyncEvents(events, yieldEvery)),
  };
}
