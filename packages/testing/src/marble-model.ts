import { Observable } from 'rxjs';
import type { ChatModel, ChatRequest, ModelEvent } from '@rxagent/core';
import type { RunHelpers } from 'rxjs/testing';

/**
 * The `cold` helper of `TestScheduler.run`.
 *
 * @example
 * const modelFor = (cold: ColdHelper) => marbleModel(cold, ['-a-f|'], values);
 */
export type ColdHelper = RunHelpers['cold'];
/**
 * A cold test observable: an Observable with the log of its subscriptions.
 *
 * @example
 * const first: ColdObservable<ModelEvent> | undefined = model.streams[0];
 * expect(first?.subscriptions).toEqual([{ subscribedFrame: 0, unsubscribedFrame: 15 }]);
 */
export type ColdObservable<T> = ReturnType<ColdHelper> & Observable<T>;

/**
 * One model call: a marble, with its own values and error when needed.
 *
 * @example
 * const calls: MarbleCall[] = ['-a-f|', { marble: '-a-#', error: new RateLimitError('Too many requests') }];
 */
export type MarbleCall = string | { marble: string; values?: Record<string, ModelEvent>; error?: unknown };

/**
 * A marble model and what it received.
 *
 * @example
 * const model: MarbleModel = marbleModel(cold, ['-a-f|'], values);
 * expect(model.requests[0]?.messages).toHaveLength(1);
 */
export interface MarbleModel extends ChatModel {
  /** Every request, copied when received. */
  readonly requests: ChatRequest[];
  /** The cold stream of each call made so far; `.subscriptions` shows when it was torn down. */
  readonly streams: ColdObservable<ModelEvent>[];
}

/**
 * A model for marble tests: one cold marble per model call, letters mapped to `ModelEvent`s.
 * Call N plays `calls[N]`; a run that makes more calls than scripted errors. Use it inside
 * `TestScheduler.run` and assert `model.streams[i].subscriptions` to see teardowns.
 *
 * @example
 * scheduler.run(({ cold, expectObservable }) => {
 *   const model = marbleModel(cold, ['-a-b-f|'], { a: textDelta('Hel'), b: textDelta('lo'), f: finishEvent(msg) });
 *   expectObservable(runAgent({ model, prompt: 'hi' }).pipe(map((e) => e.type))).toBe('…');
 * });
 */
export function marbleModel(
  cold: ColdHelper,
  calls: MarbleCall[],
  values: Record<string, ModelEvent> = {},
  options: { provider?: string; modelId?: string } = {},
): MarbleModel {
  const requests: ChatRequest[] = [];
  const streams: ColdObservable<ModelEvent>[] = [];
  return {
    provider: options.provider ?? 'marble',
    modelId: options.modelId ?? 'marble-model',
    requests,
    streams,
    stream(request: ChatRequest): Observable<ModelEvent> {
      const index = requests.length;
      requests.push({ ...request, messages: request.messages.slice() });
      const call = calls[index];
      if (call === undefined) {
        return new Observable((s) => s.error(new Error(`marbleModel has no marble for call #${index + 1}.`)));
      }
      const spec = typeof call === 'string' ? { marble: call } : call;
      const stream = cold<ModelEvent>(
        spec.marble,
        { ...values, ...spec.values },
        spec.error,
      ) as ColdObservable<ModelEvent>;
      streams.push(stream);
      return stream;
    },
  };
}

/**
 * A `text-delta` event (for marble values).
 *
 * @example
 * marbleModel(cold, ['-a-f|'], { a: textDelta('Hi'), f: finishEvent(assistantMessage([{ type: 'text', text: 'Hi' }])) });
 */
export function textDelta(text: string, index = 0): ModelEvent {
  return { type: 'text-delta', index, text };
}
