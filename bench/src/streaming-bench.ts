import { Subject } from 'rxjs';
import { runAgent, withState, type AgentEvent, type ModelEvent } from '@rxagent/core';
import { elapsedMs, elapsedMsAsync, medianOf, perSecond, type MeasureOptions } from './measure.js';
import { arrayModel, textDeltaEvents } from './models/array-model.js';

function checkCount(label: string, seen: number, expected: number): void {
  if (seen !== expected) throw new Error(`${label}: delivered ${seen} deltas, expected ${expected}.`);
}

/**
 * Deltas per second delivered to a subscriber of `runAgent` (one run, one model call
 * emitting `deltas` text deltas synchronously from a prebuilt array). Median of the runs.
 *
 * @example
 * const rate = await runAgentDeltasPerSecond(10_000, { runs: 5 });
 */
export function runAgentDeltasPerSecond(deltas: number, options?: MeasureOptions): Promise<number> {
  const model = arrayModel(textDeltaEvents(deltas));
  return medianOf(() => {
    let seen = 0;
    const ms = elapsedMs(() => {
      runAgent({ model, prompt: 'stream' }).subscribe((event: AgentEvent) => {
        if (event.type === 'message-update') seen++;
      });
    });
    checkCount('runAgent', seen, deltas);
    return perSecond(deltas, ms);
  }, options);
}

/**
 * Deltas per second folded into `withState(run$).state$` (events$ subscribed to drive the
 * run, state emissions counted).
 *
 * @example
 * const rate = await stateFoldDeltasPerSecond(10_000);
 */
export function stateFoldDeltasPerSecond(deltas: number, options?: MeasureOptions): Promise<number> {
  const model = arrayModel(textDeltaEvents(deltas));
  return medianOf(() => {
    let states = 0;
    let text = 0;
    const ms = elapsedMs(() => {
      const { events$, state$ } = withState(runAgent({ model, prompt: 'stream' }));
      state$.subscribe(() => states++);
      events$.subscribe();
      const last = state$.value.messages.at(-1);
      if (last?.role === 'assistant' && last.content[0]?.type === 'text') text = last.content[0].text.length;
    });
    // Every delta is one state emission (plus a handful for the run's other events).
    if (states < deltas) throw new Error(`state$: ${states} emissions for ${deltas} deltas.`);
    checkCount('state$', text, deltas);
    return perSecond(deltas, ms);
  }, options);
}

/**
 * Baseline: the same deltas pushed through a plain RxJS `Subject` to one subscriber.
 *
 * @example
 * const rate = await subjectDeltasPerSecond(10_000);
 */
export function subjectDeltasPerSecond(deltas: number, options?: MeasureOptions): Promise<number> {
  const events = textDeltaEvents(deltas);
  return medianOf(() => {
    let seen = 0;
    const ms = elapsedMs(() => {
      const subject = new Subject<ModelEvent>();
      subject.subscribe((event) => {
        if (event.type === 'text-delta') seen++;
      });
      for (const event of events) subject.next(event);
      subject.complete();
    });
    checkCount('Subject', seen, deltas);
    return perSecond(deltas, ms);
  }, options);
}

// The baseline is the bare async-generator protocol: an `await` in the body would add a
// microtask per delta and make the baseline slower than what it stands for.
// eslint-disable-next-line @typescript-eslint/require-await
async function* fromArray(events: readonly ModelEvent[]): AsyncGenerator<ModelEvent> {
  for (const event of events) yield event;
}

/**
 * Baseline: the same deltas from a plain async generator, consumed with `for await`.
 *
 * @example
 * const rate = await asyncGeneratorDeltasPerSecond(10_000);
 */
export function asyncGeneratorDeltasPerSecond(deltas: number, options?: MeasureOptions): Promise<number> {
  const events = textDeltaEvents(deltas);
  return medianOf(async () => {
    let seen = 0;
    const ms = await elapsedMsAsync(async () => {
      for await (const event of fromArray(events)) if (event.type === 'text-delta') seen++;
    });
    checkCount('async generator', seen, deltas);
    return perSecond(deltas, ms);
  }, options);
}

/** The streaming figures for one size, in deltas per second. */
export interface StreamingResult {
  deltas: number;
  runAgent: number;
  stateFold: number;
  subject: number;
  asyncGenerator: number;
}

/**
 * All four streaming figures for one size.
 *
 * @example
 * const { runAgent, subject } = await benchStreaming(100_000);
 */
export async function benchStreaming(deltas: number, options?: MeasureOptions): Promise<StreamingResult> {
  return {
    deltas,
    subject: await subjectDeltasPerSecond(deltas, options),
    asyncGenerator: await asyncGeneratorDeltasPerSecond(deltas, options),
    runAgent: await runAgentDeltasPerSecond(deltas, options),
    stateFold: await stateFoldDeltasPerSecond(deltas, options),
  };
}
