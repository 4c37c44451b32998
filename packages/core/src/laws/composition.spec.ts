// Law 1, composition: inserting any operator that keeps the turn anywhere in the pipeline gives
// the same model requests and the same public events (times aside).
import fc from 'fast-check';
import { executeTools } from '../operators/execute-tools.js';
import { llmStep } from '../operators/llm-step.js';
import { stopWhen } from '../operators/stop-when.js';
import { stepCountIs } from '../stop/stop-conditions.js';
import {
  keepingOpArb,
  keepingOperator,
  pipelineOf,
  scenarioArb,
  timeless,
  withInsertions,
  type Insertion,
  type KeepingOp,
  type Mode,
  type Scenario,
} from './law-fixtures.test.js';
import {
  describeOutcome,
  endTranscript,
  lawParams,
  lawTimeout,
  publicEvents,
  runScenario,
  transcriptIssues,
} from './law-harness.test.js';

const base = (scenario: Scenario) => [llmStep(), executeTools(), stopWhen(stepCountIs(scenario.stopAfter))];

const insertionsArb = (mode: Mode) =>
  fc.array(fc.record({ at: fc.integer({ min: 0, max: 3 }), op: keepingOpArb(mode) }), {
    minLength: 1,
    maxLength: 3,
  });

async function checkComposition(scenario: Scenario, insertions: Insertion<KeepingOp>[]): Promise<void> {
  const plain = await runScenario(scenario, { pipeline: pipelineOf(base(scenario)) });
  const composed = await runScenario(scenario, {
    pipeline: pipelineOf(withInsertions(base(scenario), insertions, keepingOperator)),
  });
  const dropped = new Set(insertions.flatMap((i) => (i.op.kind === 'filter-drop' ? [i.op.type] : [])));

  expect({ end: plain.end, detail: describeOutcome(plain) }).toMatchObject({ end: 'complete' });
  expect({ end: composed.end, detail: describeOutcome(composed) }).toMatchObject({ end: 'complete' });
  // The same requests to the model…
  expect(composed.model.requests).toEqual(plain.model.requests);
  // …and the same public events (without the types a filter dropped), times aside.
  expect(publicEvents(composed.events, dropped)).toEqual(publicEvents(plain.events, dropped));
  // Law 5 on the way: the run's transcript (agent-start + agent-end) is valid, and so is the
  // state's fold of the events — unless a filter dropped the message events it is folded from
  // (then `state.messages` cannot follow the run: see the suite's report).
  expect(transcriptIssues(plain)).toEqual({ state: [], agentEnd: [] });
  expect(transcriptIssues(composed).agentEnd).toEqual([]);
  if (!dropped.has('message-end')) {
    expect(transcriptIssues(composed).state).toEqual([]);
    expect(timeless(composed.state.messages)).toEqual(timeless(endTranscript(composed.events)));
  }
}

describe('Rx law 1: composition', () => {
  for (const mode of ['virtual', 'real'] as const) {
    it(
      `inserting tap/map/filter over events, delay, observeOn/subscribeOn, concatMap anywhere changes nothing (${mode} time)`,
      async () => {
        await fc.assert(
          fc.asyncProperty(scenarioArb(mode), insertionsArb(mode), checkComposition),
          lawParams(mode === 'virtual' ? 60 : 25, mode === 'virtual' ? 1_000 : 300),
        );
      },
      lawTimeout(20_000, 600_000),
    );
  }
});
