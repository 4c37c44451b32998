import { benchEager, EAGER_SCENARIO } from './eager-bench.js';
import { eagerRows } from './eager-rows.js';

describe('eager tools bench', () => {
  it('measures the step of issue 26 with and without eager tools, in virtual time', () => {
    const result = benchEager();
    expect(result).toEqual({
      scenario: EAGER_SCENARIO,
      eagerMs: 1000,
      eagerStarts: [200, 400, 600],
      eagerExecutions: 3,
      parallelMs: 1300,
      sequentialMs: 1900,
    });
    expect(eagerRows(result).map((r) => [r.name, r.met])).toEqual([
      ['eager tools: the step (calls started at 200/400/600 ms)', true],
      ['without eager, tools in parallel (toolConcurrency 8)', undefined],
      ['eager tools: executions per call (adopted, never run twice)', true],
    ]);
  });

  it('misses its target when the tools end after the model step plus 350 ms', () => {
    const slow = benchEager({ streamMs: 1_000, toolMs: 900, callsAtMs: [200, 400, 600] });
    expect(slow.eagerMs).toBe(1500);
    expect(eagerRows(slow)[0]?.met).toBe(false);
  });
});
