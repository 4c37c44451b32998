import { Agent, runAgent, withState, type ChatModel } from '@rxagent/core';
import { baselineLoop } from './baseline-loop.js';
import { elapsedMsAsync } from './measure.js';
import { noopTool, toolLoopModel } from './models/tool-loop-model.js';

/**
 * What a tool-loop benchmark runs: its baseline and the three ways to run the agent.
 *
 * @example
 * const contender: ToolLoopContender = 'agent';
 */
export type ToolLoopContender = 'baseline' | 'runAgent' | 'withState' | 'agent';

/**
 * The contenders in the order they are reported.
 *
 * @example
 * for (const c of TOOL_LOOP_CONTENDERS) console.log(c, result[c]);
 */
export const TOOL_LOOP_CONTENDERS: readonly ToolLoopContender[] = [
  'baseline',
  'runAgent',
  'withState',
  'agent',
];

/**
 * One run of `steps` no-op tool steps and a final text; returns (or resolves with) the model
 * calls the run made, which must be `steps + 1`.
 *
 * @example
 * const run: ToolLoopRun = (model, steps) => countCalls(model, steps);
 */
export type ToolLoopRun = (model: ChatModel, steps: number) => number | Promise<number>;

/**
 * A tool-loop benchmark's model and contenders: the synchronous one (`SYNC_TOOL_LOOP`) or
 * the one on an asynchronous source with an async tool (`ASYNC_TOOL_LOOP`).
 *
 * @example
 * const ms = await timeRuns('runAgent', suite.model(100), 100, 10, suite);
 */
export interface ToolLoopSuite {
  /** The model of runs of `steps` tool steps. */
  model(steps: number): ChatModel;
  runs: Readonly<Record<ToolLoopContender, ToolLoopRun>>;
  /** The contenders' names in error messages. */
  labels: Readonly<Record<ToolLoopContender, string>>;
}

/**
 * The synchronous tool-loop runs: the baseline loop and the three ways to run the agent, on
 * a synchronous model and one synchronous no-op tool, so all but `Agent.prompt` (a Promise)
 * finish inside the call.
 *
 * @example
 * const calls = await TOOL_LOOP_RUNS.baseline(toolLoopModel(100), 100); // 101
 */
export const TOOL_LOOP_RUNS: Readonly<Record<ToolLoopContender, ToolLoopRun>> = {
  baseline: (model, steps) => {
    let made = 0;
    baselineLoop({ model, tools: [noopTool], prompt: 'go', maxSteps: steps + 1 }).subscribe((event) => {
      if (event.type === 'end') made = event.steps;
    });
    return made;
  },
  runAgent: (model, steps) => {
    let made = 0;
    runAgent({ model, tools: [noopTool], prompt: 'go', maxSteps: steps + 1 }).subscribe((event) => {
      if (event.type === 'agent-end') made = event.steps;
    });
    return made;
  },
  withState: (model, steps) => {
    const { events$, state$ } = withState(
      runAgent({ model, tools: [noopTool], prompt: 'go', maxSteps: steps + 1 }),
    );
    events$.subscribe();
    return state$.value.step;
  },
  agent: async (model, steps) => {
    const result = await new Agent({ model, tools: [noopTool], maxSteps: steps + 1 }).prompt('go');
    return result.steps;
  },
};

/**
 * The synchronous tool loop: `toolLoopModel` and `TOOL_LOOP_RUNS`.
 *
 * @example
 * await benchToolLoop(1000, { suite: SYNC_TOOL_LOOP });
 */
export const SYNC_TOOL_LOOP: ToolLoopSuite = {
  model: toolLoopModel,
  runs: TOOL_LOOP_RUNS,
  labels: { baseline: 'baseline loop', runAgent: 'runAgent', withState: 'withState', agent: 'Agent' },
};

/**
 * Milliseconds for `runs` back-to-back runs of `steps` steps by one contender of a suite
 * (each run checked to make `steps + 1` model calls).
 *
 * @example
 * const ms = await timeRuns('runAgent', toolLoopModel(100), 100, 100);
 */
export function timeRuns(
  contender: ToolLoopContender,
  model: ChatModel,
  steps: number,
  runs: number,
  suite: ToolLoopSuite = SYNC_TOOL_LOOP,
): Promise<number> {
  const run = suite.runs[contender];
  return elapsedMsAsync(async () => {
    for (let i = 0; i < runs; i++) {
      const made = await run(model, steps);
      if (made !== steps + 1) {
        const label = suite.labels[contender];
        throw new Error(`${label}: the run made ${made} model calls, expected ${steps + 1}.`);
      }
    }
  });
}
