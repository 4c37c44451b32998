import { Observable } from 'rxjs';
import type { ChatModel, ModelEvent } from '@rxagent/core';
import { forkRun, readRunLog } from '@rxagent/replay';
import { collectGarbage } from './heap.js';
import { median } from './measure.js';
import { noopTool } from './models/tool-loop-model.js';

/**
 * The fork start of one log: its steps, and the median over the rounds.
 *
 * @example
 * console.log(`${figure.steps} steps: ${figure.forkStartMs} ms`);
 */
export interface ForkStartFigure {
  steps: number;
  /** Reading the log, `forkRun` at the middle step, until the fork's first model request. */
  forkStartMs: number;
  /** Of it, `forkRun` and the resumed run up to its first request (the log already read). */
  forkOnlyMs: number;
}

/**
 * Fork starts of logs of growing length, measured in the same rounds: the figure of each log,
 * and the growth per doubling of the log (each round's ratio between consecutive logs, the
 * median over the rounds: the machine's drift cancels out).
 *
 * @example
 * const { figures, perDoubling } = await benchForkStart([{ steps: 1_000, lines }, …]);
 */
export interface ForkStartResult {
  figures: ForkStartFigure[];
  /** `perDoubling[i]`: log i + 1 over log i, normalised to a doubling of the steps. */
  perDoubling: number[];
  rounds: number;
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

/** One fork start of a log at its middle step: [with the reading, forkRun alone]. */
function forkStart(steps: number, lines: readonly string[]): [number, number] {
  let end = 0;
  const model = firstRequestModel(() => (end = performance.now()));
  const start = performance.now();
  const log = readRunLog(lines);
  const read = performance.now();
  forkRun(log, {
    at: { step: Math.floor(steps / 2) },
    config: { model, tools: [noopTool], maxSteps: steps + 1 },
  })
    .subscribe()
    .unsubscribe();
  if (end === 0) throw new Error('The fork made no model request.');
  return [end - start, end - read];
}

/**
 * Measures the fork start of each log (recorded runs of `steps` no-op tool steps): warm-up
 * rounds, then `rounds` rounds in which every log is forked once, the order rotating, each
 * after a full GC (a fork start is a burst of allocation; a GC left over from the round before
 * would land in it). All in this process.
 *
 * @example
 * const result = await benchForkStart(logs, { rounds: 9 });
 */
export async function benchForkStart(
  logs: readonly { steps: number; lines: readonly string[] }[],
  options: { rounds?: number; warmup?: number } = {},
): Promise<ForkStartResult> {
  const gc = collectGarbage();
  const rounds = Math.max(1, options.rounds ?? 9);
  for (let w = 0; w < (options.warmup ?? 3); w++) for (const l of logs) forkStart(l.steps, l.lines);
  const totals: number[][] = logs.map(() => []);
  const alone: number[][] = logs.map(() => []);
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < logs.length; k++) {
      const i = (k + r) % logs.length;
      const { steps, lines } = logs[i] as (typeof logs)[number];
      gc();
      const [total, only] = forkStart(steps, lines);
      (totals[i] as number[]).push(total);
      (alone[i] as number[]).push(only);
    }
    // Give the event loop a turn between rounds (timers of the process, the bench's output).
    await new Promise((resolve) => setImmediate(resolve));
  }
  const perDoubling = logs.slice(1).map((l, i) => {
    const before = logs[i] as (typeof logs)[number];
    const doublings = Math.log2(l.steps / before.steps);
    const ratios = (totals[i + 1] as number[]).map((t, r) => t / ((totals[i] as number[])[r] as number));
    return median(ratios) ** (1 / doublings);
  });
  return {
    figures: logs.map((l, i) => ({
      steps: l.steps,
      forkStartMs: median(totals[i] as number[]),
      forkOnlyMs: median(alone[i] as number[]),
    })),
    perDoubling,
    rounds,
  };
}
