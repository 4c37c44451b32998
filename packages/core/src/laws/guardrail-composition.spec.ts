// Law 1 for the guardrail operators: inserting operators that keep the turn anywhere in a
// pipeline with inputGuard (racing the call), toolGuard and outputGuard changes neither the
// requests nor the public events (guardrail events included), and the transcript stays valid.
import fc from 'fast-check';
import { of } from 'rxjs';
import type { InputGuardrail, OutputGuardrail, ToolGuardrail } from '../guardrails/guardrail.js';
import { executeTools } from '../operators/execute-tools.js';
import { inputGuard } from '../operators/input-guard.js';
import { llmStep } from '../operators/llm-step.js';
import { outputGuard } from '../operators/output-guard.js';
import { stopWhen } from '../operators/stop-when.js';
import { toolGuard } from '../operators/tool-guard.js';
import { stepCountIs } from '../stop/stop-conditions.js';
import {
  keepingOpArb,
  keepingOperator,
  pipelineOf,
  scenarioArb,
  withInsertions,
  type Insertion,
  type KeepingOp,
  type Mode,
  type Scenario,
} from './law-fixtures.test.js';
import {
  describeOutcome,
  lawParams,
  lawTimeout,
  publicEvents,
  runScenario,
  transcriptIssues,
} from './law-harness.test.js';

const input: InputGuardrail = { name: 'input', parallel: true, check: () => of({ tripped: false }) };
// A Promise verdict settles in a microtask, outside virtual time: only in real time.
const toolsGuardrail = (mode: Mode): ToolGuardrail => ({
  name: 'tools',
  before: () => (mode === 'real' ? Promise.resolve({ action: 'allow' }) : { action: 'allow' }),
  after: (_call, result) => ({ action: 'replace', result: { ...result, content: [...result.content] } }),
});
const output: OutputGuardrail = { name: 'output', check: () => ({ tripped: false }) };

const base = (scenario: Scenario) => [
  inputGuard([input], { call: llmStep() }),
  toolGuard([toolsGuardrail(scenario.mode)]),
  executeTools(),
  outputGuard([output]),
  stopWhen(stepCountIs(scenario.stopAfter)),
];

const insertionsArb = (mode: Mode) =>
  fc.array(fc.record({ at: fc.integer({ min: 0, max: 4 }), op: keepingOpArb(mode) }), {
    minLength: 1,
    maxLength: 3,
  });

async function check(scenario: Scenario, insertions: Insertion<KeepingOp>[]): Promise<void> {
  const plain = await runScenario(scenario, { pipeline: pipelineOf(base(scenario)) });
  const composed = await runScenario(scenario, {
    pipeline: pipelineOf(withInsertions(base(scenario), insertions, keepingOperator)),
  });
  const dropped = new Set(insertions.flatMap((i) => (i.op.kind === 'filter-drop' ? [i.op.type] : [])));
  expect({ end: plain.end, detail: describeOutcome(plain) }).toMatchObject({ end: 'complete' });
  expect({ end: composed.end, detail: describeOutcome(composed) }).toMatchObject({ end: 'complete' });
  expect(composed.model.requests).toEqual(plain.model.requests);
  expect(publicEvents(composed.events, dropped)).toEqual(publicEvents(plain.events, dropped));
  expect(plain.events.some((e) => e.type === 'guardrail-end')).toBe(true);
  expect(transcriptIssues(composed).agentEnd).toEqual([]);
}

describe('Rx law 1 with guardrail operators', () => {
  for (const mode of ['virtual', 'real'] as const) {
    it(
      `inserting operators that keep the turn around inputGuard/toolGuard/outputGuard changes nothing (${mode} time)`,
      async () => {
        await fc.assert(
          fc.asyncProperty(scenarioArb(mode), insertionsArb(mode), check),
          lawParams(mode === 'virtual' ? 30 : 10, mode === 'virtual' ? 300 : 100),
        );
      },
      lawTimeout(20_000, 600_000),
    );
  }
});
