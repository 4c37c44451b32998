// Law 5, every transcript is valid: whatever the pipeline (with operators that keep the turn),
// the stream shapes, the prior transcript, and whatever ends the run (completion, abort,
// unsubscribe at any moment), the run's transcript and the state's pass validateMessageSequence.
import fc from 'fast-check';
import { defer, take, takeWhile } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { AgentMessage } from '../messages/types.js';
import { executeTools } from '../operators/execute-tools.js';
import { llmStep } from '../operators/llm-step.js';
import { stopWhen } from '../operators/stop-when.js';
import { isTerminal } from '../state/agent-state.js';
import { stepCountIs } from '../stop/stop-conditions.js';
import {
  anyScenarioArb,
  keepingOpArb,
  keepingOperator,
  pipelineOf,
  STREAM_SHAPES,
  usageOf,
  withInsertions,
  type Insertion,
  type KeepingOp,
  type Scenario,
  type StreamShape,
} from './law-fixtures.test.js';
import { describeOutcome, lawParams, lawTimeout, runScenario, transcriptIssues, type RunOptions } from './law-harness.test.js';

type Prior = 'none' | 'valid' | 'open-call';
type Ending = { kind: 'natural' } | { kind: 'take'; n: number } | { kind: 'nth-tool-event'; k: number } | { kind: 'abort'; t: number } | { kind: 'unsubscribe'; t: number };

interface Case {
  scenario: Scenario;
  insertions: Insertion<KeepingOp>[];
  shapes: StreamShape[];
  prior: Prior;
  ending: Ending;
}

const caseArb: fc.Arbitrary<Case> = anyScenarioArb({ maxMs: 40 }).chain((scenario) =>
  fc.record({
    scenario: fc.constant(scenario),
    insertions: fc.array(
      fc.record({
        at: fc.integer({ min: 0, max: 3 }),
        // No message-end filter: the state folds those events (see the composition law).
        op: keepingOpArb(scenario.mode, { teardownSafe: true }).filter((op) => op.kind !== 'filter-drop' || op.type !== 'message-end'),
      }),
      { maxLength: 2 },
    ),
    shapes: fc.array(fc.constantFrom(...STREAM_SHAPES), { minLength: 1, maxLength: 3 }),
    prior: fc.constantFrom<Prior>('none', 'valid', 'open-call'),
    ending: fc.oneof(
      fc.constant({ kind: 'natural' as const }),
      fc.record({ kind: fc.constant('take' as const), n: fc.integer({ min: 1, max: 50 }) }),
      fc.record({ kind: fc.constant('nth-tool-event' as const), k: fc.integer({ min: 1, max: 6 }) }),
      fc.record({ kind: fc.constant('abort' as const), t: fc.nat({ max: scenario.mode === 'virtual' ? 150 : 4 }) }),
      fc.record({ kind: fc.constant('unsubscribe' as const), t: fc.nat({ max: scenario.mode === 'virtual' ? 150 : 4 }) }),
    ),
  }),
);

function priorMessages(prior: Prior): AgentMessage[] {
  if (prior === 'none') return [];
  const assistant = (content: AgentMessage['content']): AgentMessage =>
    ({ role: 'assistant', content, stopReason: 'stop', usage: usageOf(1, 1), provider: 'law', model: 'law-model', timestamp: 0 }) as AgentMessage;
  const messages: AgentMessage[] = [{ role: 'user', content: 'before', timestamp: 0 }];
  // 'open-call': a prior transcript cut after a tool call (the run repairs it).
  messages.push(
    prior === 'valid'
      ? assistant([{ type: 'text', text: 'earlier answer' }])
      : assistant([{ type: 'tool-call', id: 'prior_call', name: 't0', args: { n: 1, ms: 0 } }]),
  );
  return messages;
}

function endingOptions(ending: Ending): RunOptions {
  switch (ending.kind) {
    case 'natural':
      return {};
    case 'take':
      return { cut: (e$) => e$.pipe(take(ending.n)) };
    case 'nth-tool-event':
      return {
        cut: (e$) =>
          defer(() => {
            let seen = 0;
            const isToolEvent = (e: AgentEvent) => e.type === 'tool-start' || e.type === 'tool-end';
            return e$.pipe(takeWhile((e) => !isToolEvent(e) || ++seen < ending.k, true));
          }),
      };
    case 'abort':
      return { abortAt: ending.t };
    case 'unsubscribe':
      return { unsubscribeAt: ending.t };
  }
}

async function checkTranscripts(c: Case): Promise<void> {
  const { scenario } = c;
  const base = [llmStep(), executeTools(), stopWhen(stepCountIs(scenario.stopAfter))];
  const outcome = await runScenario(scenario, {
    ...endingOptions(c.ending),
    pipeline: pipelineOf(withInsertions(base, c.insertions, keepingOperator)),
    shapes: c.shapes,
    config: { messages: priorMessages(c.prior) },
  });
  const detail = describeOutcome(outcome);
  expect({ tornDown: outcome.atTeardown !== undefined, detail }).toMatchObject({ tornDown: true });
  expect({ terminal: isTerminal(outcome.state.phase), detail }).toMatchObject({ terminal: true });
  expect({ issues: transcriptIssues(outcome), detail }).toMatchObject({ issues: { state: [], agentEnd: [] } });
  // An aborted run still ends cleanly, with agent-end.
  if (c.ending.kind === 'abort' && outcome.end !== 'pending') expect(outcome.end).toBe('complete');
}

describe('Rx law 5: every transcript is valid', () => {
  it(
    'after completion, abort or unsubscribe, with any kept-turn operators, stream shapes and prior transcript',
    async () => {
      await fc.assert(fc.asyncProperty(caseArb, checkTranscripts), lawParams(100, 1_000));
    },
    lawTimeout(20_000, 600_000),
  );
});
