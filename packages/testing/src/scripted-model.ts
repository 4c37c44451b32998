import { asyncScheduler, Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { ProviderError, type ChatModel, type ChatRequest, type ModelEvent } from '@rxagent/core';
import type { ScriptedTurn } from './model-builders.js';
import { IncompleteScriptError } from './incomplete-script-error.js';

/**
 * A turn, or a function that builds it from the request (to react to tool results).
 *
 * @example
 * const echo: ScriptedTurnInput = (request, call) => textTurn(`Call ${call}: ${request.messages.length} messages`);
 */
export type ScriptedTurnInput = ScriptedTurn | ((request: ChatRequest, call: number) => ScriptedTurn);

/**
 * Options of `scriptedModel`.
 *
 * @example
 * scriptedModel([textTurn('Hi')], { latency: { firstMs: 200, perEventMs: 20 }, scheduler: testScheduler });
 */
export interface ScriptedModelOptions {
  /** Delay before each event in ms: a number, or first / per-event delays. Default 0 (synchronous). */
  latency?: number | { firstMs: number; perEventMs: number };
  /** Where the latency runs (default `asyncScheduler`; pass the TestScheduler in tests). */
  scheduler?: SchedulerLike;
  provider?: string;
  modelId?: string;
}

/**
 * A scripted model and what it received.
 *
 * @example
 * const model: ScriptedModel = scriptedModel([textTurn('Hi')]);
 * await lastValueFrom(runAgent({ model, prompt: 'Hello' }));
 * expect(model.calls).toBe(1);
 */
export interface ScriptedModel extends ChatModel {
  /** Every request, copied when received. */
  readonly requests: ChatRequest[];
  /** How many streams were subscribed. */
  readonly calls: number;
  /** How many streams were unsubscribed before they ended (the teardown ran). */
  readonly cancelled: number;
  /** Throws `IncompleteScriptError` when scripted turns were left unused. */
  assertComplete(): void;
}

/**
 * A model that plays scripted turns, one per call, in real time (or virtual time with a
 * scheduler). With no latency it emits synchronously. Runs out of turns → a non-retryable
 * `ProviderError` saying so. The turns are one queue for every caller: runs sharing the model
 * (parallel sub-runs, concurrent runs) each get the next turn when they call, so their turns
 * interleave — give each its own model, or a turn that is a function of the request.
 *
 * @example
 * const model = scriptedModel([toolCallTurn({ name: 'list', args: {} }), textTurn('Done.')], { latency: 30 });
 * runAgent({ model, tools, prompt: 'What is here?' }).subscribe(console.log);
 */
export function scriptedModel(turns: ScriptedTurnInput[], options: ScriptedModelOptions = {}): ScriptedModel {
  const requests: ChatRequest[] = [];
  let calls = 0;
  let cancelled = 0;
  const scheduler = options.scheduler ?? asyncScheduler;
  const latency =
    typeof options.latency === 'number'
      ? { firstMs: options.latency, perEventMs: options.latency }
      : (options.latency ?? { firstMs: 0, perEventMs: 0 });
  return {
    provider: options.provider ?? 'scripted',
    modelId: options.modelId ?? 'scripted-model',
    get requests() {
      return requests;
    },
    get calls() {
      return calls;
    },
    get cancelled() {
      return cancelled;
    },
    assertComplete() {
      if (calls >= turns.length) return;
      const unused = turns.map((_, i) => i + 1).slice(calls);
      throw new IncompleteScriptError(
        `scriptedModel made ${calls} of ${turns.length} scripted call(s)`,
        unused,
      );
    },
    stream(request: ChatRequest): Observable<ModelEvent> {
      return new Observable<ModelEvent>((subscriber) => {
        const call = calls++;
        requests.push({ ...request, messages: request.messages.slice() });
        const input = turns[call];
        if (!input) {
          subscriber.error(
            new ProviderError(`scriptedModel has no turn for call #${call + 1}: give it more turns.`, {
              retryable: false,
              provider: 'scripted',
            }),
          );
          return;
        }
        const turn = typeof input === 'function' ? input(request, call) : input;
        let ended = false;
        const end = () => {
          ended = true;
          if (turn.error !== undefined) subscriber.error(turn.error);
          else subscriber.complete();
        };
        if (latency.firstMs === 0 && latency.perEventMs === 0) {
          for (const event of turn.events) {
            if (subscriber.closed) break;
            subscriber.next(event);
          }
          if (!subscriber.closed) end();
          return;
        }
        let i = 0;
        let pending: Subscription | undefined;
        const step = () => {
          if (i < turn.events.length) {
            subscriber.next(turn.events[i++] as ModelEvent);
            // Unsubscribed from inside `next` (an abort): the teardown ran, schedule nothing more.
            if (!subscriber.closed) pending = scheduler.schedule(step, latency.perEventMs);
          } else end();
        };
        pending = scheduler.schedule(step, latency.firstMs);
        return () => {
          if (!ended) cancelled++;
          pending?.unsubscribe();
        };
      });
    },
  };
}
