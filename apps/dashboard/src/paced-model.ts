import { concatMap, map, timer, type SchedulerLike } from 'rxjs';
import type { ChatModel, ModelEvent } from '@rxagent/core';
import { scriptedModel, type ScriptedTurn, type ScriptedTurnInput } from '@rxagent/testing';

/**
 * A range of milliseconds `[min, max]`; each wait is drawn uniformly inside it.
 *
 * @example
 * const deltaMs: MsRange = [20, 60];
 */
export type MsRange = readonly [number, number];

/**
 * How fast the scripted runs go.
 *
 * @example
 * const fast: ScriptedTiming = { firstEventMs: [20, 60], deltaMs: [3, 8], toolMs: [150, 300] };
 */
export interface ScriptedTiming {
  /** Wait before the first event of a model call (time to first token). */
  firstEventMs: MsRange;
  /** Wait between two streamed events. */
  deltaMs: MsRange;
  /** How long a fake tool works. */
  toolMs: MsRange;
}

/**
 * Latencies like a real provider's: first token after 0.3–0.9 s, a delta every 20–60 ms,
 * tools of 0.3–1.5 s.
 *
 * @example
 * scriptedRunFactory({ timing: REALISTIC_TIMING });
 */
export const REALISTIC_TIMING: ScriptedTiming = {
  firstEventMs: [300, 900],
  deltaMs: [20, 60],
  toolMs: [300, 1500],
};

/**
 * A pseudo-random generator in [0, 1) from a seed (mulberry32): the same seed gives the same
 * latencies, so a scripted dashboard replays identically.
 *
 * @example
 * const random = seededRandom(42);
 * between(random, [20, 60]); // the same number on every run with seed 42
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A whole number of ms drawn uniformly in `range` (inclusive).
 *
 * @example
 * between(Math.random, [300, 1500]); // e.g. 812
 */
export function between(random: () => number, range: MsRange): number {
  const [min, max] = range;
  return Math.round(min + random() * Math.max(0, max - min));
}

/**
 * Splits every text delta of a scripted turn into word-sized deltas (each word with its
 * trailing space), the way providers stream text.
 *
 * @example
 * wordByWord(textTurn('Hello brave world')); // text-deltas 'Hello ', 'brave ', 'world'
 */
export function wordByWord(turn: ScriptedTurn): ScriptedTurn {
  const events = turn.events.flatMap((event): ModelEvent[] =>
    event.type === 'text-delta'
      ? (event.text.match(/\S+\s*|\s+/g) ?? [event.text]).map((text) => ({ ...event, text }))
      : [event],
  );
  return { ...turn, events };
}

/**
 * Options of `pacedModel`.
 *
 * @example
 * pacedModel(turns, { timing: REALISTIC_TIMING, random: seededRandom(1), scheduler: asyncScheduler });
 */
export interface PacedModelOptions {
  timing: Pick<ScriptedTiming, 'firstEventMs' | 'deltaMs'>;
  random: () => number;
  scheduler: SchedulerLike;
  modelId?: string;
}

/**
 * A `scriptedModel` whose events come out one by one with random waits drawn from `timing`,
 * on the scheduler (a fixed latency per event would look mechanical on the dashboard).
 * Cold and cancellable like any `ChatModel`: unsubscribing drops the pending waits.
 *
 * @example
 * const model = pacedModel([textTurn('Hi there!')], { timing: REALISTIC_TIMING, random: seededRandom(1), scheduler: asyncScheduler });
 */
export function pacedModel(turns: ScriptedTurnInput[], options: PacedModelOptions): ChatModel {
  const inner = scriptedModel(turns, { provider: 'scripted', modelId: options.modelId ?? 'scripted-model' });
  const { timing, random, scheduler } = options;
  return {
    provider: inner.provider,
    modelId: inner.modelId,
    stream: (request) =>
      inner
        .stream(request)
        .pipe(
          concatMap((event, i) =>
            timer(between(random, i === 0 ? timing.firstEventMs : timing.deltaMs), scheduler).pipe(
              map(() => event),
            ),
          ),
        ),
  };
}
