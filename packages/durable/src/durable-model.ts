import { serializeError } from '@rxagent/core/provider';
import type { ChatModel, ModelEvent, SerializedError } from '@rxagent/core';
import { reviveProviderError } from '@rxagent/core/provider';
import { Observable, type Subscriber, type Subscription } from 'rxjs';
import type { RunControl } from './run-control.js';
import type { RunRecords } from './run-records.js';

/** What a model step records: the `finish` event (the whole message, usage included), or the error. */
export type ModelStepRecord =
  | { ok: true; finish: Extract<ModelEvent, { type: 'finish' }> }
  | { ok: false; error: SerializedError & { provider?: string } };

/** The record of a call the run stopped (it unsubscribed before the model finished). */
const ABORTED: ModelStepRecord = {
  ok: false,
  error: { name: 'AbortError', message: 'The run stopped during this model call.' },
};

function deliver(subscriber: Subscriber<ModelEvent>, record: ModelStepRecord): void {
  if (subscriber.closed) return;
  // The same typed error live and replayed, so a replay retries exactly as the run did.
  if (!record.ok) subscriber.error(reviveProviderError(record.error));
  else {
    subscriber.next(record.finish);
    subscriber.complete();
  }
}

/**
 * The model seam of a durable run: each `stream()` call (each attempt) is a step recorded in
 * `records` under `model:<n>`, n counting the execution's model calls (they come one at a
 * time, in the same order in every execution). Run for the first time, the model streams live
 * (deltas reach the run as they come) and the step records the finished message, or the
 * error; the stream completes only once the record is in PostgreSQL, so no tool of that turn
 * starts before it. The record is stored in one statement, and only while this execution owns
 * the run (DBOS's ownership token) and the run is not cancelled: a cancelled run is aborted,
 * a run another worker took over is fenced. Replayed after a crash, the step returns the
 * record without calling the model: the run gets the same message (as one `finish`, no
 * deltas) or the same typed error, and is not charged again.
 */
export function durableModel(
  model: ChatModel,
  control: RunControl,
  records: RunRecords,
  ownerXid: string,
): ChatModel {
  let calls = 0;
  const store = (key: string, record: ModelStepRecord, subscriber?: Subscriber<ModelEvent>) =>
    records.storeOwned(key, record, ownerXid).then(
      (stored) => {
        if (stored.stored) {
          if (subscriber) deliver(subscriber, stored.value);
        } else if (stored.status === 'cancelled') control.cancel();
        else if (!control.abort.signal.aborted) control.fence();
      },
      (error: unknown) => {
        if (subscriber && !subscriber.closed) subscriber.error(error);
      },
    );
  const durable: ChatModel = {
    provider: model.provider,
    modelId: model.modelId,
    stream: (request) =>
      new Observable<ModelEvent>((subscriber) => {
        const key = `model:${calls++}`;
        const found = records.value<ModelStepRecord>(key);
        if (found) {
          deliver(subscriber, found.v);
          return undefined;
        }
        let settled = false;
        const settle = (record: ModelStepRecord) => {
          if (settled) return;
          settled = true;
          void store(key, record, subscriber);
        };
        let finish: Extract<ModelEvent, { type: 'finish' }> | undefined;
        const inner: Subscription = model.stream(request).subscribe({
          next: (event) => {
            if (event?.type === 'finish') finish = event;
            else if (!subscriber.closed) subscriber.next(event);
          },
          error: (error: unknown) =>
            settle({
              ok: false,
              error: { ...serializeError(error, { secrets: model.secrets }), provider: model.provider },
            }),
          complete: () =>
            settle(
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
        return () => {
          inner.unsubscribe();
          // An aborted call is recorded as aborted (the run is ending); a fenced run records nothing.
          if (!settled && !control.isFenced) {
            settled = true;
            void store(key, ABORTED);
          }
        };
      }),
  };
  // The model's secrets go on, so the core still redacts its errors (not enumerable: no JSON).
  return Object.defineProperty(durable, 'secrets', { value: model.secrets, enumerable: false });
}
