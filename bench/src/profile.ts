import { Agent, runAgent, withState } from '@rxagent/core';
import { baselineLoop } from './baseline-loop.js';
import { arrayModel, textDeltaEvents } from './models/array-model.js';
import { noopTool, toolLoopModel } from './models/tool-loop-model.js';

// Built once: the profile should show the loop, not the construction of the model's events.
const streamingModel = arrayModel(textDeltaEvents(100_000));

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
} satisfies Record<string, () => void>;

/**
 * Runs one workload over and over for a while, for `node --cpu-prof`:
 * `node --cpu-prof --cpu-prof-dir=bench/results/prof bench/dist/profile.js tool-loop 5`
 * then `node bench/dist/summarize-profile.js bench/results/prof/<file>.cpuprofile`.
 *
 * @example
 * profileWorkload('streaming', 5_000); // runs the streaming workload for 5 s
 */
export function profileWorkload(name: keyof typeof PROFILE_WORKLOADS, durationMs: number): number {
  const workload = PROFILE_WORKLOADS[name];
  const end = performance.now() + durationMs;
  let runs = 0;
  while (performance.now() < end) {
    workload();
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
    const runs = profileWorkload(name as keyof typeof PROFILE_WORKLOADS, Number(seconds) * 1000);
    process.stdout.write(`${name}: ${runs} runs in ${seconds} s\n`);
  }
}
