// Law 4, producers are not trusted: a model stream built any legal way (concat with timers,
// endWith, next/complete/error after complete, events after finish) is handled exactly once per
// notification — one assistant message per turn, usage counted once, no model call after
// `agent-end`, a valid transcript.
import fc from 'fast-check';
import type { AgentEvent } from '../events/agent-event.js';
import { addUsage, emptyUsage } from '../messages/usage.js';
import {
  anyScenarioArb,
  RESURRECTED,
  scriptedMessage,
  STREAM_SHAPES,
  timeless,
  type Scenario,
  type StreamShape,
} from './law-fixtures.test.js';
import {
  describeOutcome,
  endTranscript,
  lawParams,
  lawTimeout,
  runScenario,
  transcriptIssues,
} from './law-harness.test.js';

const shapesArb = fc.array(fc.constantFrom(...STREAM_SHAPES), { minLength: 1, maxLength: 4 });

function assistantEnds(events: readonly AgentEvent[]) {
  return events.flatMap((e) =>
    e.type === 'message-end' && e.message.role === 'assistant' ? [e.message] : [],
  );
}

async function checkProducers(scenario: Scenario, shapes: StreamShape[]): Promise<void> {
  const outcome = await runScenario(scenario, { shapes });
  const detail = describeOutcome(outcome);
  expect({ end: outcome.end, detail }).toMatchObject({ end: 'complete' });
  const events = outcome.events;
  const turns = events.filter((e) => e.type === 'turn-end').length;
  const calls = outcome.final.streamCalls;
  // One model call per turn, none after agent-end.
  expect({ calls, turns, callsAtAgentEnd: outcome.callsAtAgentEnd, detail }).toMatchObject({
    calls: turns,
    callsAtAgentEnd: turns,
  });
  // Exactly one assistant message per turn, the one the stream finished with.
  const starts = events.filter((e) => e.type === 'message-start' && e.message.role === 'assistant').length;
  expect(starts).toBe(turns);
  const expected = Array.from({ length: turns }, (_, i) => scriptedMessage(scenario, i + 1));
  expect(assistantEnds(events).map((m) => timeless(m.content))).toEqual(
    expected.map((m) => timeless(m.content)),
  );
  const transcript = endTranscript(events) ?? [];
  expect(transcript.filter((m) => m.role === 'assistant').length).toBe(turns);
  // Nothing a stream sent after it ended reached the run.
  expect(events.some((e) => timeless(e).includes(RESURRECTED))).toBe(false);
  // Usage counted once per message.
  const end = events.find((e) => e.type === 'agent-end');
  const usage = expected.reduce((sum, m) => addUsage(sum, m.usage), emptyUsage());
  expect(end?.type === 'agent-end' ? end.usage : undefined).toEqual(usage);
  // Every stream torn down; law 5: valid transcripts, the state's the same as the run's.
  expect(outcome.final.teardowns).toBe(outcome.final.subscriptions);
  expect(transcriptIssues(outcome)).toEqual({ state: [], agentEnd: [] });
  expect(timeless(outcome.state.messages)).toEqual(timeless(transcript));
}

describe('Rx law 4: producers are not trusted', () => {
  it(
    'streams built with concat/timer, endWith, or misbehaving after complete give one message per turn, usage once, no late call',
    async () => {
      await fc.assert(fc.asyncProperty(anyScenarioArb(), shapesArb, checkProducers), lawParams(100, 1_000));
    },
    lawTimeout(20_000, 600_000),
  );
});
