import { runAgent, withState, type ChatRequest, type Message, type ModelEvent } from '@rxagent/core';
import { elapsedMs, median, medianOf, type MeasureOptions } from './measure.js';
import { noopParameters, noopTool, toolLoopModel, toolLoopTurn } from './models/tool-loop-model.js';

function checkSteps(label: string, steps: number, expected: number): void {
  if (steps !== expected) throw new Error(`${label}: the run made ${steps} steps, expected ${expected}.`);
}

/**
 * Microseconds per step of a `runAgent` run of `steps` steps of one no-op tool call each
 * (synchronous model and tool), then a final text. Median of the runs.
 *
 * @example
 * const us = await runAgentMicrosPerStep(1000);
 */
export function runAgentMicrosPerStep(steps: number, options?: MeasureOptions): Promise<number> {
  const model = toolLoopModel(steps);
  return medianOf(() => {
    let made = 0;
    const ms = elapsedMs(() => {
      runAgent({ model, tools: [noopTool], prompt: 'go', maxSteps: steps + 1 }).subscribe((event) => {
        if (event.type === 'agent-end') made = event.steps;
      });
    });
    checkSteps('runAgent', made, steps + 1);
    return (ms * 1000) / steps;
  }, options);
}

/**
 * Per-step cost of one `longSteps` run over per-step cost of `longSteps / shortSteps` runs of
 * `shortSteps` (the same number of steps), measured back to back in each round so that the
 * machine's drift cancels out; the median of the rounds' ratios. About 1 for a linear loop,
 * about `longSteps / shortSteps` for one that copies the transcript per step.
 *
 * @example
 * const growth = await perStepGrowth(10_000, 100);
 */
export function perStepGrowth(longSteps: number, shortSteps: number, options: MeasureOptions = {}): number {
  const long = toolLoopModel(longSteps);
  const short = toolLoopModel(shortSteps);
  const repeats = Math.max(1, Math.round(longSteps / shortSteps));
  const runOnce = (model: typeof long, steps: number) => {
    let made = 0;
    runAgent({ model, tools: [noopTool], prompt: 'go', maxSteps: steps + 1 }).subscribe((event) => {
      if (event.type === 'agent-end') made = event.steps;
    });
    checkSteps('runAgent', made, steps + 1);
  };
  const round = () => {
    const longMs = elapsedMs(() => runOnce(long, longSteps));
    const shortMs = elapsedMs(() => {
      for (let i = 0; i < repeats; i++) runOnce(short, shortSteps);
    });
    return longMs / longSteps / (shortMs / (repeats * shortSteps));
  };
  for (let i = 0; i < (options.warmup ?? 2); i++) round();
  const ratios: number[] = [];
  for (let i = 0; i < Math.max(1, options.runs ?? 7); i++) ratios.push(round());
  return median(ratios);
}

/**
 * Per-step cost late in one long run over per-step cost early in it (steps 9,000–10,000 over
 * 1,000–2,000 of a 10,000-step run, by the time each model call starts): above 1 means steps
 * get dearer as the transcript grows. Median of the runs.
 *
 * @example
 * const growth = await inRunGrowth(10_000); // ≈ 1 for a linear loop
 */
export function inRunGrowth(steps: number, options?: MeasureOptions): Promise<number> {
  const model = toolLoopModel(steps);
  const window = Math.max(1, Math.floor(steps / 10));
  return medianOf(() => {
    const starts: number[] = [];
    const timed = {
      ...model,
      stream: (request: ChatRequest) => (starts.push(performance.now()), model.stream(request)),
    };
    runAgent({ model: timed, tools: [noopTool], prompt: 'go', maxSteps: steps + 1 }).subscribe();
    const perStep = (from: number) => ((starts[from + window] ?? 0) - (starts[from] ?? 0)) / window;
    return perStep(steps - window) / perStep(window);
  }, options);
}

/**
 * The same run through `withState` (events$ driving it): the cost of keeping the state too.
 *
 * @example
 * const us = await stateLoopMicrosPerStep(1000);
 */
export function stateLoopMicrosPerStep(steps: number, options?: MeasureOptions): Promise<number> {
  const model = toolLoopModel(steps);
  return medianOf(() => {
    let made = 0;
    const ms = elapsedMs(() => {
      const { events$, state$ } = withState(
        runAgent({ model, tools: [noopTool], prompt: 'go', maxSteps: steps + 1 }),
      );
      events$.subscribe();
      made = state$.value.step;
    });
    checkSteps('withState', made, steps + 1);
    return (ms * 1000) / steps;
  }, options);
}

/**
 * Baseline: a hand-written loop doing the same work without RxJS operators — build the
 * request, read the model's events, run the tool, append the messages — per step.
 *
 * @example
 * const us = await handLoopMicrosPerStep(1000);
 */
export function handLoopMicrosPerStep(steps: number, options?: MeasureOptions): Promise<number> {
  return medianOf(() => {
    let made = 0;
    const ms = elapsedMs(() => {
      const messages: Message[] = [{ role: 'user', content: 'go', timestamp: 0 }];
      for (;;) {
        made++;
        const request: ChatRequest = { messages };
        const events: ModelEvent[] = toolLoopTurn(request, steps);
        const finish = events[events.length - 1];
        if (finish?.type !== 'finish') throw new Error('the model did not finish');
        messages.push(finish.message);
        const call = finish.message.content.find((p) => p.type === 'tool-call');
        if (!call) break;
        const args = noopParameters.parse(call.args);
        const output = noopTool.execute(args, undefined as never);
        messages.push({
          role: 'tool',
          toolCallId: call.id,
          toolName: call.name,
          content: [{ type: 'text', text: typeof output === 'string' ? output : '' }],
          isError: false,
          timestamp: 0,
        });
      }
    });
    checkSteps('hand loop', made, steps + 1);
    return (ms * 1000) / steps;
  }, options);
}

/** Per-step costs for one run length, in µs. */
export interface ToolLoopResult {
  steps: number;
  runAgent: number;
  withState: number;
  handLoop: number;
  /** Per-step cost of the last tenth of one run over the second tenth (see `inRunGrowth`). */
  inRunGrowth: number;
}

/**
 * The three per-step figures for one run length.
 *
 * @example
 * const { runAgent, handLoop } = await benchToolLoop(1000);
 */
export async function benchToolLoop(steps: number, options?: MeasureOptions): Promise<ToolLoopResult> {
  return {
    steps,
    handLoop: await handLoopMicrosPerStep(steps, options),
    runAgent: await runAgentMicrosPerStep(steps, options),
    withState: await stateLoopMicrosPerStep(steps, options),
    inRunGrowth: await inRunGrowth(steps, options),
  };
}
