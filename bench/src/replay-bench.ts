import { Observable, queueScheduler } from 'rxjs';
import { runAgent, type AgentEvent, type ChatModel, type ModelEvent } from '@rxagent/core';
import { forkRun, memoryLog, readRunLog, recordRun, replayRun } from '@rxagent/replay';
import { backToBack, medianFigure, medianOf, perSecond } from './measure.js';
import { noopTool, toolLoopModel } from './models/tool-loop-model.js';

/**
 * The replay benchmark's figures for a recorded run of `steps` tool steps.
 *
 * @example
 * console.log(`${result.replayEventsPerSecond} events/s replayed`);
 */
export interface ReplayResult {
  steps: number;
  events: number;
  /** Lines and bytes of the run's log. */
  logLines: number;
  logBytes: number;
  /** The original run (a synchronous model and tool), its events per second. */
  originalEventsPerSecond: number;
  /** The same run replayed from its log's lines (reading them included), events per second. */
  replayEventsPerSecond: number;
  /** Reading the log, then `forkRun` at the middle step until the fork's first model request. */
  forkStartMs: number;
  /** Of it, `forkRun` alone (the log already read). */
  forkOnlyMs: number;
}

/** Counts a run's events (it completes synchronously). */
function count(run$: Observable<AgentEvent>): number {
  let events = 0;
  run$.subscribe({ next: () => events++ });
  return events;
}

/** A model that stops the clock at its first request and answers nothing more. */
function firstRequestModel(onRequest: () => void): ChatModel {
  return {
    provider: 'memory',
    modelId: 'tool-loop-model',
    stream: () =>
      new Observable<ModelEvent>(() => {
        onRequest();
      }),
  };
}

/**
 * Records a run of `steps` no-op tool steps, then measures: the original run's events/s beside
 * its replay's (from the log's lines, reading included), and the start of a fork at the middle
 * step (reading the log, `forkRun`, the resumed run up to its first model request).
 *
 * @example
 * rows.push(...replayRows(await benchReplay(1_000)));
 */
export async function benchReplay(steps: number): Promise<ReplayResult> {
  const config = () => ({
    model: toolLoopModel(steps),
    tools: [noopTool],
    prompt: 'go',
    maxSteps: steps + 1,
    scheduler: queueScheduler,
  });
  const sink = memoryLog();
  const events = count(recordRun(runAgent(config()), sink));
  const lines = sink.lines;
  const rounds = await backToBack(
    {
      original: () => {
        const start = performance.now();
        const n = count(runAgent(config()));
        return perSecond(n, performance.now() - start);
      },
      replay: () => {
        const start = performance.now();
        const n = count(replayRun(readRunLog(lines), { speed: Infinity }));
        return perSecond(n, performance.now() - start);
      },
    },
    { runs: 7, warmup: 2, budgetMs: 15_000 },
  );
  const at = { step: Math.floor(steps / 2) };
  const forkStart = (withReading: boolean) => {
    const read = withReading ? undefined : readRunLog(lines);
    let end = 0;
    const model = firstRequestModel(() => (end = performance.now()));
    const start = performance.now();
    const log = read ?? readRunLog(lines);
    const subscription = forkRun(log, {
      at,
      config: { model, tools: [noopTool], maxSteps: steps + 1 },
    }).subscribe();
    subscription.unsubscribe();
    if (end === 0) throw new Error('The fork made no model request.');
    return end - start;
  };
  return {
    steps,
    events,
    logLines: lines.length,
    logBytes: lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0),
    originalEventsPerSecond: medianFigure(rounds, 'original'),
    replayEventsPerSecond: medianFigure(rounds, 'replay'),
    forkStartMs: await medianOf(() => forkStart(true), { runs: 7, warmup: 2 }),
    forkOnlyMs: await medianOf(() => forkStart(false), { runs: 7, warmup: 2 }),
  };
}
