// Law 2, misuse is loud: dropping, duplicating or copying the turn, or putting operators where
// they lack what they need, fails the run with a PipelineError — never a hang, never a silent
// no-op, never a second model call — and leaves nothing running.
import fc from 'fast-check';
import { PipelineError } from '../errors/pipeline-error.js';
import type { LoopOperator } from '../turn/loop-item.js';
import { executeTools } from '../operators/execute-tools.js';
import { llmStep } from '../operators/llm-step.js';
import { stopWhen } from '../operators/stop-when.js';
import { stepCountIs } from '../stop/stop-conditions.js';
import {
  dropTurn,
  duplicateTurn,
  keepingOpArb,
  keepingOperator,
  nullTurn,
  pipelineOf,
  scenarioArb,
  spreadTurn,
  withInsertions,
  type Insertion,
  type KeepingOp,
  type Mode,
  type Scenario,
} from './law-fixtures.test.js';
import { describeOutcome, lawParams, lawTimeout, runScenario, transcriptIssues } from './law-harness.test.js';

type Order = 'tools-before-llm' | 'stop-before-llm' | 'stop-tools-llm' | 'only-tools' | 'only-stop' | 'empty';
type Misuse =
  { kind: 'drop' | 'duplicate' | 'spread' | 'null'; at: number } | { kind: 'order'; order: Order };

const misuseArb: fc.Arbitrary<Misuse> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('drop' as const, 'duplicate' as const, 'spread' as const, 'null' as const),
    at: fc.integer({ min: 0, max: 3 }),
  }),
  fc.record({
    kind: fc.constant('order' as const),
    order: fc.constantFrom<Order>(
      'tools-before-llm',
      'stop-before-llm',
      'stop-tools-llm',
      'only-tools',
      'only-stop',
      'empty',
    ),
  }),
);

function misusedOperators(scenario: Scenario, misuse: Misuse): LoopOperator[] {
  const stop = () => stopWhen(stepCountIs(scenario.stopAfter));
  if (misuse.kind !== 'order') {
    const bad = { drop: dropTurn, duplicate: duplicateTurn, spread: spreadTurn, null: nullTurn }[
      misuse.kind
    ]();
    return withInsertions([llmStep(), executeTools(), stop()], [{ at: misuse.at, op: bad }], (op) => op);
  }
  switch (misuse.order) {
    case 'tools-before-llm':
      return [executeTools(), llmStep(), stop()];
    case 'stop-before-llm':
      return [stop(), llmStep(), executeTools()];
    case 'stop-tools-llm':
      return [stop(), executeTools(), llmStep()];
    case 'only-tools':
      return [executeTools()];
    case 'only-stop':
      return [stop()];
    case 'empty':
      return [];
  }
}

async function checkMisuse(
  scenario: Scenario,
  misuse: Misuse,
  benign: Insertion<KeepingOp>[],
): Promise<void> {
  const operators = withInsertions(misusedOperators(scenario, misuse), benign, keepingOperator);
  const outcome = await runScenario(scenario, { pipeline: pipelineOf(operators) });
  const detail = describeOutcome(outcome);
  // Loud: the run fails with a PipelineError (a hang would be `pending`)…
  expect({ end: outcome.end, pipelineError: PipelineError.isInstance(outcome.error), detail }).toMatchObject({
    end: 'error',
    pipelineError: true,
  });
  // …before any second model call (the misuse is on the first turn)…
  expect(outcome.final.streamCalls).toBeLessThanOrEqual(1);
  // …and nothing goes on after it: streams torn down, tools aborted, no timer left.
  expect(outcome.atTeardown).toBeDefined();
  expect(outcome.final.subscriptions).toBe(outcome.final.teardowns);
  expect(outcome.final.toolStarts).toBe(outcome.atTeardown?.toolStarts);
  expect(outcome.atTeardown?.openNotAborted).toEqual([]);
  if (scenario.mode === 'virtual') expect(outcome.timersLeft).toBe(0);
  expect(outcome.atTeardown?.liveStreams).toBe(0);
  // Law 5: the state's transcript is closed and valid (when the message events it folds are kept).
  const dropsMessages = benign.some((i) => i.op.kind === 'filter-drop' && i.op.type === 'message-end');
  if (!dropsMessages) expect(transcriptIssues(outcome).state).toEqual([]);
}

const benignArb = (mode: Mode) =>
  fc.array(
    fc.record({ at: fc.integer({ min: 0, max: 3 }), op: keepingOpArb(mode, { teardownSafe: true }) }),
    { maxLength: 2 },
  );

describe('Rx law 2: misuse is loud', () => {
  for (const mode of ['virtual', 'real'] as const) {
    it(
      `dropping, duplicating, copying the turn or misordering operators fails with PipelineError (${mode} time)`,
      async () => {
        await fc.assert(
          fc.asyncProperty(scenarioArb(mode), misuseArb, benignArb(mode), checkMisuse),
          lawParams(mode === 'virtual' ? 80 : 30, mode === 'virtual' ? 1_000 : 300),
        );
      },
      lawTimeout(20_000, 600_000),
    );
  }
});
