import { from, Subject, type Observable } from 'rxjs';
import { Agent, runAgent, withState, type AgentEvent, type ChatModel, type ModelEvent } from '@rxagent/core';
import { baselineLoop, type BaselineEvent } from './baseline-loop.js';
import {
  backToBack,
  elapsedMs,
  elapsedMsAsync,
  medianFigure,
  medianRatio,
  perSecond,
  type RoundsOptions,
} from './measure.js';
import { arrayModel, textDeltaEvents } from './models/array-model.js';
import { ASYNC_YIELD_EVERY, asyncArrayModel, asyncEvents } from './models/async-array-model.js';

function checkCount(label: string, seen: number, expected: number): void {
  if (seen !== expected) throw new Error(`${label}: delivered ${seen} deltas, expected ${expected}.`);
}

/** Subscribes and resolves when the Observable completes (rejects on its error). */
function drain<T>(source$: Observable<T>, next: (value: T) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    source$.subscribe({ next, error: reject, complete: resolve });
  });
}

const countBaselineDelta = (event: BaselineEvent) => event.type === 'delta';
const countRunDelta = (event: AgentEvent) => event.type === 'message-update';

/**
 * One run of `baselineLoop` on the model (one model call streaming `deltas` text deltas):
 * deltas per second delivered to its subscriber. Resolves when the run completed.
 */
async function baselineLoopRate(model: ChatModel, deltas: number): Promise<number> {
  let seen = 0;
  const ms = await elapsedMsAsync(() =>
    drain(baselineLoop({ model, prompt: 'stream' }), (e) => (countBaselineDelta(e) ? seen++ : undefined)),
  );
  checkCount('baseline loop', seen, deltas);
  return perSecond(deltas, ms);
}

/** One `runAgent` run: deltas per second delivered to its subscriber. */
async function runAgentRate(model: ChatModel, deltas: number): Promise<number> {
  let seen = 0;
  const ms = await elapsedMsAsync(() =>
    drain(runAgent({ model, prompt: 'stream' }), (e) => (countRunDelta(e) ? seen++ : undefined)),
  );
  checkCount('runAgent', seen, deltas);
  return perSecond(deltas, ms);
}

/** One `new Agent({ model }).prompt()`: deltas per second delivered to its listener. */
async function agentRate(model: ChatModel, deltas: number): Promise<number> {
  let seen = 0;
  const ms = await elapsedMsAsync(async () => {
    const agent = new Agent({ model });
    agent.subscribe((e) => (countRunDelta(e) ? seen++ : undefined));
    await agent.prompt('stream');
  });
  checkCount('Agent', seen, deltas);
  return perSecond(deltas, ms);
}

/**
 * One run through `withState` (state$ subscribed, events$ driving the run): deltas per
 * second folded into the state.
 */
async function stateFoldRate(model: ChatModel, deltas: number): Promise<number> {
  let states = 0;
  let text = 0;
  const ms = await elapsedMsAsync(async () => {
    const { events$, state$ } = withState(runAgent({ model, prompt: 'stream' }));
    state$.subscribe(() => states++);
    await drain(events$, () => undefined);
    const last = state$.value.messages.at(-1);
    if (last?.role === 'assistant' && last.content[0]?.type === 'text') text = last.content[0].text.length;
  });
  // Every delta is one state emission (plus a handful for the run's other events).
  if (states < deltas) throw new Error(`state$: ${states} emissions for ${deltas} deltas.`);
  checkCount('state$', text, deltas);
  return perSecond(deltas, ms);
}

/** The same deltas pushed through a plain RxJS `Subject` to one subscriber. */
function subjectRate(events: readonly ModelEvent[], deltas: number): number {
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
}

// The baseline is the bare async-generator protocol: an `await` in the body would add a
// microtask per delta and make the baseline slower than what it stands for.
// eslint-disable-next-line @typescript-eslint/require-await
async function* fromArray(events: readonly ModelEvent[]): AsyncGenerator<ModelEvent> {
  for (const event of events) yield event;
}

/** The same deltas from a plain async generator, consumed with `for await`. */
async function asyncGeneratorRate(events: readonly ModelEvent[], deltas: number): Promise<number> {
  let seen = 0;
  const ms = await elapsedMsAsync(async () => {
    for await (const event of fromArray(events)) if (event.type === 'text-delta') seen++;
  });
  checkCount('async generator', seen, deltas);
  return perSecond(deltas, ms);
}

/**
 * The streaming figures for one size with a synchronous source (a prebuilt array emitted in
 * one go), in deltas per second, and the cost ratios (medians of the rounds' ratios).
 */
export interface StreamingResult {
  deltas: number;
  subject: number;
  asyncGenerator: number;
  baselineLoop: number;
  runAgent: number;
  stateFold: number;
  /** Median of baseline-loop rate / runAgent rate: > 1 means runAgent is slower. */
  runAgentVsBaseline: number;
  /** Median of baseline-loop rate / state-fold rate. */
  stateFoldVsBaseline: number;
  /** Median of Subject rate / runAgent rate. */
  runAgentVsSubject: number;
}

/**
 * Streaming with a synchronous source: one model call emitting `deltas` text deltas from a
 * prebuilt array, through the Subject and async-generator baselines, `baselineLoop`,
 * `runAgent` and `withState`, measured back to back in each round.
 *
 * @example
 * const { runAgent, baselineLoop, runAgentVsBaseline } = await benchStreaming(100_000);
 */
export async function benchStreaming(deltas: number, options?: RoundsOptions): Promise<StreamingResult> {
  const events = textDeltaEvents(deltas);
  const model = arrayModel(events);
  const rounds = await backToBack(
    {
      subject: () => subjectRate(events, deltas),
      asyncGenerator: () => asyncGeneratorRate(events, deltas),
      baselineLoop: () => baselineLoopRate(model, deltas),
      runAgent: () => runAgentRate(model, deltas),
      stateFold: () => stateFoldRate(model, deltas),
    },
    options,
  );
  return {
    deltas,
    subject: medianFigure(rounds, 'subject'),
    asyncGenerator: medianFigure(rounds, 'asyncGenerator'),
    baselineLoop: medianFigure(rounds, 'baselineLoop'),
    runAgent: medianFigure(rounds, 'runAgent'),
    stateFold: medianFigure(rounds, 'stateFold'),
    runAgentVsBaseline: medianRatio(rounds, 'baselineLoop', 'runAgent'),
    stateFoldVsBaseline: medianRatio(rounds, 'baselineLoop', 'stateFold'),
    runAgentVsSubject: medianRatio(rounds, 'subject', 'runAgent'),
  };
}

/** The streaming figures for one size with an asynchronous source, in deltas per second. */
export interface AsyncStreamingResult {
  deltas: number;
  /** The source yields to the event loop every this many events. */
  yieldEvery: number;
  /** The source alone: `from(asyncGenerator)` to a subscriber. */
  source: number;
  baselineLoop: number;
  runAgent: number;
  stateFold: number;
  /** `new Agent({ model }).prompt()`, deltas to its listener. */
  agent: number;
  /** Median of baseline-loop rate / runAgent rate: > 1 means runAgent is slower. */
  runAgentVsBaseline: number;
  /** Median of baseline-loop rate / state-fold rate. */
  stateFoldVsBaseline: number;
  /** Medians of the source's rate / each contender's (> 1: slower than the source alone). */
  vsSource: { baselineLoop: number; runAgent: number; stateFold: number; agent: number };
}

/**
 * Streaming with an asynchronous source, as real SDK streams are: one model call streaming
 * `deltas` text deltas from an async generator (`from(asyncGenerator())`) that yields to the
 * event loop every `ASYNC_YIELD_EVERY` events; the source alone, `baselineLoop`, `runAgent`,
 * `withState` and `Agent`, measured back to back in each round.
 *
 * @example
 * const { runAgentVsBaseline } = await benchAsyncStreaming(100_000); // target ≤ 1.25 (≥ 0.8× the rate)
 */
export async function benchAsyncStreaming(
  deltas: number,
  options?: RoundsOptions,
): Promise<AsyncStreamingResult> {
  const events = textDeltaEvents(deltas);
  const model = asyncArrayModel(events);
  const sourceRate = async () => {
    let seen = 0;
    const ms = await elapsedMsAsync(() =>
      drain(from(asyncEvents(events)), (e) => (e.type === 'text-delta' ? seen++ : undefined)),
    );
    checkCount('async source', seen, deltas);
    return perSecond(deltas, ms);
  };
  const rounds = await backToBack(
    {
      source: sourceRate,
      baselineLoop: () => baselineLoopRate(model, deltas),
      runAgent: () => runAgentRate(model, deltas),
      stateFold: () => stateFoldRate(model, deltas),
      agent: () => agentRate(model, deltas),
    },
    options,
  );
  return {
    deltas,
    yieldEvery: ASYNC_YIELD_EVERY,
    source: medianFigure(rounds, 'source'),
    baselineLoop: medianFigure(rounds, 'baselineLoop'),
    runAgent: medianFigure(rounds, 'runAgent'),
    stateFold: medianFigure(rounds, 'stateFold'),
    agent: medianFigure(rounds, 'agent'),
    runAgentVsBaseline: medianRatio(rounds, 'baselineLoop', 'runAgent'),
    stateFoldVsBaseline: medianRatio(rounds, 'baselineLoop', 'stateFold'),
    vsSource: {
      baselineLoop: medianRatio(rounds, 'source', 'baselineLoop'),
      runAgent: medianRatio(rounds, 'source', 'runAgent'),
      stateFold: medianRatio(rounds, 'source', 'stateFold'),
      agent: medianRatio(rounds, 'source', 'agent'),
    },
  };
}
