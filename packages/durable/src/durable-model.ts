import { DBOS } from '@dbos-inc/dbos-sdk';
import { serializeError } from '@rxagent/core/provider';
import type { ChatModel, ModelEvent, SerializedError } from '@rxagent/core';
import { reviveProviderError } from '@rxagent/core/provider';
import { Observable, type Subscription } from 'rxjs';
import { handleEngineError, type RunControl } from './run-control.js';

/** What a model step records: the `finish` event (the whole message, usage included), or the error. */
export type ModelStepRecord =
  | { ok: true; finish: Extract<ModelEvent, { type: 'finish' }> }
  | { ok: false; error: SerializedError & { provider?: string } };

/**
 * The model seam of a durable run: each `stream()` call (each attempt) is one DBOS step named
 * `model`. Run for the first time, the model streams live (deltas reach the run as they come)
 * and the step records the finished message, or the error; the stream completes only once the
 * record is in PostgreSQL, so no tool of that turn starts before it. Replayed after a crash,
 * the step returns the record without calling the model: the run gets the same message (as one
 * `finish`, no deltas) or the same typed error, and is not charged again.
 */
export function durableModel(model: ChatModel, control: RunControl): ChatModel {
  const durable: ChatModel = {
    provider: model.provider,
    modelId: model.modelId,
    stream: (request) =>
      new Observable<ModelEvent>((subscriber) => {
        let inner: Subscription | undefined;
        let settle: ((record: ModelStepRecord) => void) | undefined;
        const step = DBOS.runStep(
          () =>
            new Promise<ModelStepRecord>((resolve) => {
              settle = resolve;
              let finish: Extract<ModelEvent, { type: 'finish' }> | undefined;
              inner = model.stream(request).subscribe({
                next: (event) => {
                  if (event?.type === 'finish') finish = event;
                  else if (!subscriber.closed) subscriber.next(event);
                },
                error: (error: unknown) =>
                  resolve({
                    ok: false,
                    error: { ...serializeError(error, { secrets: model.secrets }), provider: model.provider },
                  }),
                complete: () =>
                  resolve(
                    finish
                      ? { ok: true, finish }
                      : {
                          ok: false,
                          error: {
                            name: 'PartialStreamError',
                            message: `The ${model.provider} stream ended without a finish event.`,
                            retryable: true,
                            provider: model.provider,
                          },
                        },
                  ),
              });
            }),
          { name: 'model' },
        );
        step.then(
          (record) => {
            if (subscriber.closed) return;
            // The same typed error live and replayed, so a replay retries exactly as the run did.
            if (!record.ok) subscriber.error(reviveProviderError(record.error));
            else {
              subscriber.next(record.finish);
              subscriber.complete();
            }
          },
          (error: unknown) => {
            if (!handleEngineError(control, error) && !subscriber.closed) subscriber.error(error);
          },
        );
        return () => {
          inner?.unsubscribe();
          // An aborted call is recorded as aborted (the run is ending); a fenced run records nothing.
          if (!control.isFenced) {
            settle?.({
              ok: false,
              error: { name: 'AbortError', message: 'The run stopped during this model call.' },
            });
          }
        };
      }),
  };
  // The model's secrets go on, so the core still redacts its errors (not enumerable: no JSON).
  return Object.defineProperty(durable, 'secrets', { value: model.secrets, enumerable: false });
}
