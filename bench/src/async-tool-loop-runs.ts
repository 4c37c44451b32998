import { lastValueFrom, type Observable } from 'rxjs';
import { Agent, runAgent, withState, type AgentEvent, type ChatModel } from '@rxagent/core';
import { expandLoop } from './expand-loop.js';
import { asyncNoopTool, asyncToolLoopModel } from './models/async-tool-loop-model.js';
import type { ToolLoopContender, ToolLoopRun, ToolLoopSuite } from './tool-loop-runs.js';

/** The model calls of a run, from its `agent-end`; resolves when the run completes. */
function runSteps(run$: Observable<AgentEvent>): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    let made = 0;
    run$.subscribe({
      next: (event) => {
        if (event.type === 'agent-end') made = event.steps;
      },
      error: reject,
      complete: () => resolve(made),
    });
  });
}

const config = (model: ChatModel, steps: number) => ({
  model,
  tools: [asyncNoopTool],
  prompt: 'go',
  maxSteps: steps + 1,
});

/**
 * The asynchronous tool-loop runs, on a model streaming from an async generator
 * (`asyncToolLoopModel`) and one `async` no-op tool (`asyncNoopTool`): the smallest RxJS
 * `expand` loop as the baseline, `runAgent` (a subscriber), `withState` (state$ subscribed,
 * events$ driving the run) and `new Agent(…).prompt()` (with a listener). Each resolves with
 * the model calls the run made once it completed.
 *
 * @example
 * const calls = await ASYNC_TOOL_LOOP_RUNS.runAgent(asyncToolLoopModel(100), 100); // 101
 */
export const ASYNC_TOOL_LOOP_RUNS: Readonly<Record<ToolLoopContender, ToolLoopRun>> = {
  baseline: (model, steps) =>
    lastValueFrom(expandLoop({ model, tool: asyncNoopTool, prompt: 'go', maxSteps: steps + 1 })),
  runAgent: (model, steps) => runSteps(runAgent(config(model, steps))),
  withState: async (model, steps) => {
    const { events$, state$ } = withState(runAgent(config(model, steps)));
    let states = 0;
    state$.subscribe(() => states++);
    const made = await runSteps(events$);
    // One state per event at least: the fold ran.
    if (states < 4 * made) throw new Error(`withState: ${states} states for ${made} steps.`);
    return state$.value.step;
  },
  agent: async (model, steps) => {
    const agent = new Agent({ model, tools: [asyncNoopTool], maxSteps: steps + 1 });
    let events = 0;
    agent.subscribe(() => events++);
    const result = await agent.prompt('go');
    if (events < 4 * result.steps) throw new Error(`Agent: ${events} events for ${result.steps} steps.`);
    return result.steps;
  },
};

/**
 * The asynchronous tool loop: `asyncToolLoopModel` and `ASYNC_TOOL_LOOP_RUNS`.
 *
 * @example
 * await benchToolLoop(1000, { suite: ASYNC_TOOL_LOOP });
 */
export const ASYNC_TOOL_LOOP: ToolLoopSuite = {
  model: asyncToolLoopModel,
  runs: ASYNC_TOOL_LOOP_RUNS,
  labels: { baseline: 'expand loop', runAgent: 'runAgent', withState: 'withState', agent: 'Agent' },
};
