import { Observable } from 'rxjs';
import { emptyUsage, type AssistantMessage, type ChatModel, type ModelEvent } from '@rxagent/core';

/**
 * The events of one streamed text answer: `deltas` text deltas of `piece`, usage, finish.
 * Built once, so a benchmark measures delivery, not construction.
 *
 * @example
 * const events = textDeltaEvents(10_000); // 10,000 text-delta events, then usage and finish
 */
export function textDeltaEvents(deltas: number, piece = 'x'): ModelEvent[] {
  const events: ModelEvent[] = [];
  for (let i = 0; i < deltas; i++) events.push({ type: 'text-delta', index: 0, text: piece });
  const usage = { ...emptyUsage(), outputTokens: deltas, totalTokens: deltas };
  const message: AssistantMessage = {
    role: 'assistant',
    content: [{ type: 'text', text: piece.repeat(deltas) }],
    stopReason: 'stop',
    usage,
    provider: 'memory',
    model: 'array-model',
    timestamp: 0,
  };
  events.push({ type: 'usage', usage }, { type: 'finish', reason: 'stop', message });
  return events;
}

/**
 * An in-memory model whose every call emits `events` synchronously from the array, then
 * completes: the cheapest possible model, so the figure is the loop's own cost.
 *
 * @example
 * runAgent({ model: arrayModel(textDeltaEvents(1000)), prompt: 'go' }).subscribe();
 */
export function arrayModel(events: readonly ModelEvent[]): ChatModel {
  return {
    provider: 'memory',
    modelId: 'array-model',
    stream: () =>
      new Observable<ModelEvent>((subscriber) => {
        for (let i = 0; i < events.length && !subscriber.closed; i++)
          subscriber.next(events[i] as ModelEvent);
        subscriber.complete();
      }),
  };
}
