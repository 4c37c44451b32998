// Law 5, every transcript is valid: whatever the pipeline (with operators that keep the turn),
// the stream shapes, the prior transcript, and whatever ends the run (completion, abort,
// unsubscribe at any moment), the run's transcript and the state's pass validateMessageSequence.
import fc from 'fast-check';
import { defer, map, take, takeWhile, timer } from 'rxjs';
import { z } from 'zod';
import { assistantMessage, createTestScheduler, finishEvent, marbleModel, textDelta } from '@rxagent/testing';
import type { AgentEndEvent, AgentEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import { userMessage } from '../messages/message-helpers.js';
import { validateMessageSequence } from '../messages/message-sequence.js';
import type { AgentMessage, ToolCallPart } from '../messages/types.js';
import { tool } from '../tools/tool.js';
import { executeTools } from '../operators/execute-tools.js';
import { llmStep } from '../operators/llm-step.js';
import { stopWhen } from '../operators/stop-when.js';
import { isTerminal } from '../state/agent-state.js';
import { stepCountIs } from '../stop/stop-conditions.js';
import {
  keepingOpArb,
  keepingOperator,
  pipelineOf,
  scenarioArb,
  STREAM_SHAPES,
  usageOf,
  withInsertions,
  type Insertion,
  type KeepingOp,
  type Mode,
  type Scenario,
  type StreamShape,
} from './law-fixtures.test.js';
import {
  describeOutcome,
  lawParams,
  lawTimeout,
  runScenario,
  transcriptIssues,
  type RunOptions,
} from './law-harness.test.js';

type Prior = 'none' | 'valid' | 'open-call';
type Ending =
  | { kind: 'natural' }
  | { kind: 'take'; n: number }
  | { kind: 'nth-tool-event'; k: number }
  | { kind: 'abort'; t: number }
  | { kind: 'unsubscribe'; t: number };

interface Case {
  scenario: Scenario;
  insertions: Insertion<KeepingOp>[];
  shapes: StreamShape[];
  prior: Prior;
  ending: Ending;
}

const caseArb = (mode: Mode): fc.Arbitrary<Case> => {
  const maxT = mode === 'virtual' ? 150 : 4;
  return fc.record({
    scenario: scenarioArb(mode, { maxMs: 40, eager: true }),
    insertions: fc.array(
      fc.record({
        at: fc.integer({ min: 0, max: 3 }),
        // No message-end filter: the state folds those events (see the composition law).
        op: keepingOpArb(mode, { teardownSafe: true }).filter(
          (op) => op.kind !== 'filter-drop' || op.type !== 'message-end',
        ),
      }),
      { maxLength: 2 },
    ),
    shapes: fc.array(fc.constantFrom(...STREAM_SHAPES), { minLength: 1, maxLength: 3 }),
    prior: fc.constantFrom<Prior>('none', 'valid', 'open-call'),
    ending: fc.oneof(
      fc.constant({ kind: 'natural' as const }),
      fc.record({ kind: fc.constant('take' as const), n: fc.integer({ min: 1, max: 50 }) }),
      fc.record({ kind: fc.constant('nth-tool-event' as const), k: fc.integer({ min: 1, max: 6 }) }),
      fc.record({ kind: fc.constant('abort' as const), t: fc.nat({ max: maxT }) }),
      fc.record({ kind: fc.constant('unsubscribe' as const), t: fc.nat({ max: maxT }) }),
    ),
  });
};

function priorMessages(prior: Prior): AgentMessage[] {
  if (prior === 'none') return [];
  const assistant = (content: AgentMessage['content']): AgentMessage =>
    ({
      role: 'assistant',
      content,
      stopReason: 'stop',
      usage: usageOf(1, 1),
      provider: 'law',
      model: 'law-model',
      timestamp: 0,
    }) as AgentMessage;
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
  expect({ issues: transcriptIssues(outcome), detail }).toMatchObject({
    issues: { state: [], agentEnd: [] },
  });
  // An aborted run still ends cleanly, with agent-end.
  if (c.ending.kind === 'abort' && outcome.end !== 'pending') expect(outcome.end).toBe('complete');
}

describe('Rx law 5: every transcript is valid', () => {
  for (const mode of ['virtual', 'real'] as const) {
    it(
      `after completion, abort or unsubscribe, with any kept-turn operators, stream shapes and prior transcript (${mode} time)`,
      async () => {
        await fc.assert(
          fc.asyncProperty(caseArb(mode), checkTranscripts),
          lawParams(mode === 'virtual' ? 100 : 40, 1_000),
        );
      },
      lawTimeout(20_000, 600_000),
    );
  }
});

// Minimal reproductions of what the property found (see the suite's report). On an abort, the
// loop builds `agent-end.messages` from the events it watched, sliced after the prior
// transcript's length — but its watch never sees `agent-start` (emitted before the watched
// part), so it slices the run's own first messages off instead of the prior ones.
describe('Rx law 5: abort with a prior transcript (minimal reproductions)', () => {
  const prior: AgentMessage[] = [
    userMessage('before'),
    assistantMessage([{ type: 'text', text: 'earlier' }]),
  ];
  const call: ToolCallPart = { type: 'tool-call', id: 'c1', name: 'wait', args: {} };
  const wait = tool({
    name: 'wait',
    description: 'waits 10 ms',
    parameters: z.object({}),
    execute: (_args, { scheduler }) => timer(10, scheduler).pipe(map(() => 'waited')),
  });

  function abortedRun(
    marble: string,
    values: Parameters<typeof marbleModel>[2],
    abortAt: number,
  ): AgentEndEvent {
    const events: AgentEvent[] = [];
    createTestScheduler().run(({ cold, flush }) => {
      const controller = new AbortController();
      const model = marbleModel(cold, [marble], values);
      timer(abortAt).subscribe(() => controller.abort());
      runAgent({ model, tools: [wait], prompt: 'go', messages: prior, signal: controller.signal }).subscribe(
        (e) => events.push(e),
      );
      flush();
    });
    const end = events.at(-1) as AgentEndEvent;
    expect(end).toMatchObject({ type: 'agent-end', reason: 'user-requested' });
    return end;
  }

  it('aborted while a tool runs: agent-end.messages has the prompt, the call, its result, the marker', () => {
    const end = abortedRun('(f|)', { f: finishEvent(assistantMessage([call], 'tool-calls')) }, 5);
    expect(validateMessageSequence([...prior, ...end.messages])).toEqual([]);
    expect(end.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('aborted mid-stream: agent-end.messages has the prompt and the partial answer with the marker', () => {
    const end = abortedRun(
      'a 9ms (f|)',
      { a: textDelta('Hel'), f: finishEvent(assistantMessage([{ type: 'text', text: 'Hello' }])) },
      5,
    );
    expect(end.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
