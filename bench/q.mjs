import { runAgent } from '@rxagent/core';
import { baselineLoop } from './dist/baseline-loop.js';
import { toolLoopModel, noopTool } from './dist/models/tool-loop-model.js';
for (const S of [100, 1000, 10000, 100, 1000, 10000, 100, 1000, 10000]) {
  const model = toolLoopModel(S);
  const reps = Math.max(1, 10000 / S);
  let t = performance.now();
  for (let i = 0; i < reps; i++) baselineLoop({ model, tools: [noopTool], prompt: 'go' }).subscribe();
  const b = ((performance.now() - t) * 1000) / (reps * S);
  t = performance.now();
  for (let i = 0; i < reps; i++)
    runAgent({ model, tools: [noopTool], prompt: 'go', maxSteps: S + 1 }).subscribe();
  const r = ((performance.now() - t) * 1000) / (reps * S);
  console.log(S, 'baseline', b.toFixed(2), 'runAgent', r.toFixed(2));
}
