import { map } from 'rxjs';
import { executeTools } from '../operators/execute-tools.js';
import { llmStep } from '../operators/llm-step.js';
import { stopWhen } from '../operators/stop-when.js';
import { stepCountIs } from '../stop/stop-conditions.js';
import { isTurn, type LoopItem } from '../loop/turn.js';
import { pipelineOf, type Scenario } from './law-fixtures.test.js';
import { publicEvents, runScenario } from './law-harness.test.js';

const scenario: Scenario = {
  mode: 'virtual',
  tools: ['timer', 'sync'],
  steps: [
    {
      calls: [
        { tool: 0, n: 1, ms: 5 },
        { tool: 1, n: 2, ms: 0 },
      ],
      text: 'Hi',
      input: 1,
      output: 2,
    },
  ],
  modelTiming: 'latency',
  latencyMs: 3,
  stopAfter: 5,
  concurrency: 8,
};
it('detects a changed event', async () => {
  const plain = await runScenario(scenario, {
    pipeline: pipelineOf([llmStep(), executeTools(), stopWhen(stepCountIs(5))]),
  });
  const bad = await runScenario(scenario, {
    pipeline: pipelineOf([
      llmStep(),
      executeTools(),
      map((x: LoopItem) => (isTurn(x) ? x : x.type === 'tool-start' ? { ...x, toolName: 'zz' } : x)),
      stopWhen(stepCountIs(5)),
    ]),
  });
  console.log(
    plain.events.map((e) => e.type).join(','),
    plain.model.requests,
    plain.atTeardown,
    plain.timersLeft,
  );
  expect(publicEvents(bad.events)).not.toEqual(publicEvents(plain.events));
});
