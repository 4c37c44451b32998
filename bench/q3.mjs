import { baselineLoop } from './dist/baseline-loop.js';
import { toolLoopModel, noopTool } from './dist/models/tool-loop-model.js';
const S = 10000;
const base = toolLoopModel(S);
for (let r = 0; r < 6; r++) {
  const starts = [];
  const model = { ...base, stream: (req) => (starts.push(performance.now()), base.stream(req)) };
  baselineLoop({ model, tools: [noopTool], prompt: 'go' }).subscribe();
  const w = 1000;
  const per = (from) => ((starts[from + w] - starts[from]) / w) * 1000;
  console.log(
    'early',
    per(1000).toFixed(1),
    'mid',
    per(5000).toFixed(1),
    'late',
    per(S - w).toFixed(1),
    'total',
    (((starts[S] - starts[0]) / S) * 1000).toFixed(1),
  );
}
