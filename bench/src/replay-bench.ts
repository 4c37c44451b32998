import { queueScheduler, type Observable } from 'rxjs';
import { runAgent, type AgentEvent } from '@rxagent/core';
import { memoryLog, readRunLog, recordRun, replayRun } from '@rxagent/replay';
import { backToBack, medianFigure, perSecond } from './measure.js';
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
}

/** Counts a run's events (it completes synchronously). */
function count(run$: Observable<AgentEvent>): number {
  let events = 0;
  run$.subscribe({ next: () => events++ });
  return events;
}

const config = (steps: number) => ({
  model: toolLoopModel(steps),
  tools: [noopTool],
  prompt: 'go',
  maxSteps: steps + 1,
  scheduler: queueScheduler,
});

/**
 * Records a run of `steps` no-op tool steps (`recordRun` to a `memoryLog`): the log's lines.
 *
 * @example
 * const lines = recordToolLoop(1_000);
 */
export function recordToolLoop(steps: number): readonly string[] {
  const sink = memoryLog();
  count(recordRun(runAgent(config(steps)), sink));
  return sink.lines;
}

/**
 * Measures a recorded run of `steps` no-op tool steps (its log's `lines`, `recordToolLoop`):
 * the original run's events/s beside its replay's (from the log's lines, reading included).
 * The fork start is `benchForkStart`'s.
 *
 * @example
 * rows.push(...replayRows([await benchReplay(1_000, recordToolLoop(1_000))]));
 */
export async function benchReplay(steps: number, lines: readonly string[]): Promise<ReplayResult> {
  const rounds = await backToBack(
    {
      original: () => {
        const start = performance.now();
        const n = count(runAgent(config(steps)));
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
  return {
    steps,
    events: readRunLog(lines).events.length,
    logLines: lines.length,
    logBytes: lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0),
    originalEventsPerSecond: medianFigure(rounds, 'original'),
    replayEventsPerSecond: medianFigure(rounds, 'replay'),
  };
}
