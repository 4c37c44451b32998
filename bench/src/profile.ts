import { lastValueFrom } from 'rxjs';
import { Agent, runAgent, withState } from '@rxagent/core';
import { ASYNC_TOOL_LOOP_RUNS } from './async-tool-loop-runs.js';
import { baselineLoop } from './baseline-loop.js';
import { arrayModel, textDeltaEvents } from './models/array-model.js';
import { asyncArrayModel } from './models/async-array-model.js';
import { asyncToolLoopModel } from './models/async-tool-loop-model.js';
import { noopTool, toolLoopModel } from './models/tool-loop-model.js';

// Built once: the profile should show the loop, not the construction of the model's events.
const streamingModel = arrayModel(textDeltaEvents(100_000));
const asyncStreamingModel = asyncArrayModel(textDeltaEvents(10_000));
const asyncLoopModel = asyncToolLoopModel(1_000);

/**
 * The workloads `profile.js` can run.
 *
 * @example
 * PROFILE_WORKLOADS['tool-loop'](); // one 1,000-step run
 */
export const PROFILE_WORKLOADS = {
  streaming: () => {
    runAgent({ model: streamingModel, prompt: 'stream' }).subscribe();
  },
  'state-streaming': () => {
    withState(runAgent({ model: streamingModel, prompt: 'stream' })).events$.subscribe();
  },
  'baseline-streaming': () => {
    baselineLoop({ model: streamingModel, prompt: 'stream' }).subscribe();
  },
  'tool-loop': () => {
    runAgent({ model: toolLoopModel(1_000), tools: [noopTool], prompt: 'go', maxSteps: 1_001 }).subscribe();
  },
  'state-tool-loop': () => {
    const run$ = runAgent({ model: toolLoopModel(3_000), tools: [noopTool], prompt: 'go', maxSteps: 3_001 });
    withState(run$).events$.subscribe();
  },
  'baseline-tool-loop': () => {
    baselineLoop({ model: toolLoopModel(1_000), tools: [noopTool], prompt: 'go' }).subscribe();
  },
  'agent-tool-loop': () => {
    // Synchronous model and tool: the run is over when prompt() returns (the Promise settles later).
    void new Agent({ model: toolLoopModel(1_000), tools: [noopTool], maxSteps: 1_001 }).prompt('go');
  },
  // The asynchronous source and the async tool (each workload awaited).
  'async-streaming': () => lastValueFrom(runAgent({ model: asyncStreamingModel, prompt: 'stream' })),
  'async-agent-streaming': async () => {
    const agent = new Agent({ model: asyncStreamingModel });
    agent.subscribe(() => undefined);
    await agent.prompt('stream');
  },
  'async-tool-loop': () => ASYNC_TOOL_LOOP_RUNS.runAgent(asyncLoopModel, 1_000),
  'async-state-tool-loop': () => ASYNC_TOOL_LOOP_RUNS.withState(asyncLoopModel, 1_000),
  'async-agent-tool-loop': () => ASYNC_TOOL_LOOP_RUNS.agent(asyncLoopModel, 1_000),
  'expand-tool-loop': () => ASYNC_TOOL_LOOP_RUNS.baseline(asyncLoopModel, 1_000),
} satisfies Record<string, () => unknown>;

/**
 * Runs one workload over and over for a while, for `node --cpu-prof`:
 * `node --cpu-prof --cpu-prof-dir=bench/results/prof bench/dist/profile.js tool-loop 5`
 * then `node bench/dist/summarize-profile.js bench/results/prof/<file>.cpuprofile`.
 *
 * @example
 * await profileWorkload('streaming', 5_000); // runs the streaming workload for 5 s
 */
export async function profileWorkload(
  name: keyof typeof PROFILE_WORKLOADS,
  durationMs: number,
): Promise<number> {
  const workload: () => unknown = PROFILE_WORKLOADS[name];
  const end = performance.now() + durationMs;
  let runs = 0;
  while (performance.now() < end) {
    await workload();
    runs++;
  }
  return runs;
}

const [, , name = 'tool-loop', seconds = '5'] = process.argv;
if (process.argv[1]?.endsWith('profile.js')) {
  if (!(name in PROFILE_WORKLOADS)) {
    process.stderr.write(
      `Unknown workload "${name}": use one of ${Object.keys(PROFILE_WORKLOADS).join(', ')}.\n`,
    );
    process.exitCode = 1;
  } else {
    void profileWorkload(name as keyof typeof PROFILE_WORKLOADS, Number(seconds) * 1000).then((runs) =>
      process.stdout.write(`${name}: ${runs} runs in ${seconds} s\n`),
    );
  }
}
