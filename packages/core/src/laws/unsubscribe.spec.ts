// Law 3, unsubscribe means stop at any moment — also synchronously from inside a subscriber's
// `next`, from `take(n)`, `first()`, `takeWhile`: afterwards no model call and no tool execution
// starts, every running tool's signal is aborted, every model stream is torn down, no timer is
// left.
import fc from 'fast-check';
import { defer, first, Subject, take, takeUntil, takeWhile, tap, timer, type Observable } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import { isTerminal } from '../state/agent-state.js';
import { scenarioArb, type Mode, type Scenario } from './law-fixtures.test.js';
import {
  describeOutcome,
  lawParams,
  lawTimeout,
  runScenario,
  transcriptIssues,
  type RunOptions,
} from './law-harness.test.js';

const CUT_TYPES: AgentEvent['type'][] = [
  'agent-start',
  'turn-start',
  'message-start',
  'message-update',
  'message-end',
  'tool-start',
  'tool-end',
  'turn-end',
];

type Cut =
  | { kind: 'take'; n: number }
  | { kind: 'first'; type: AgentEvent['type'] }
  | { kind: 'takeWhile'; type: AgentEvent['type'] }
  | { kind: 'nth'; type: AgentEvent['type']; k: number }
  | { kind: 'in-next'; n: number }
  | { kind: 'at'; t: number }
  | { kind: 'takeUntil-timer'; t: number };

const cutArb = (mode: Mode): fc.Arbitrary<Cut> => {
  const maxT = mode === 'virtual' ? 200 : 5;
  return fc.oneof(
    fc.record({ kind: fc.constant('take' as const), n: fc.integer({ min: 1, max: 60 }) }),
    fc.record({ kind: fc.constant('first' as const), type: fc.constantFrom(...CUT_TYPES) }),
    fc.record({ kind: fc.constant('takeWhile' as const), type: fc.constantFrom(...CUT_TYPES) }),
    fc.record({
      kind: fc.constant('nth' as const),
      type: fc.constantFrom<AgentEvent['type']>('tool-start', 'tool-end', 'message-update', 'turn-start'),
      k: fc.integer({ min: 1, max: 4 }),
    }),
    fc.record({ kind: fc.constant('in-next' as const), n: fc.integer({ min: 1, max: 60 }) }),
    fc.record({ kind: fc.constant('at' as const), t: fc.nat({ max: maxT }) }),
    fc.record({ kind: fc.constant('takeUntil-timer' as const), t: fc.nat({ max: maxT }) }),
  );
};

function cutOptions(cut: Cut): RunOptions {
  const cutWith = (f: (events$: Observable<AgentEvent>) => Observable<AgentEvent>): RunOptions => ({
    cut: f,
  });
  switch (cut.kind) {
    case 'take':
      return cutWith((e$) => e$.pipe(take(cut.n)));
    case 'first':
      return cutWith((e$) => e$.pipe(first((e) => e.type === cut.type)));
    case 'takeWhile':
      return cutWith((e$) => e$.pipe(takeWhile((e) => e.type !== cut.type)));
    case 'nth':
      // The k-th event of a type (mid-batch for tool events: some tools still running).
      return cutWith((e$) =>
        defer(() => {
          let seen = 0;
          return e$.pipe(takeWhile((e) => e.type !== cut.type || ++seen < cut.k, true));
        }),
      );
    case 'in-next':
      // The subscriber's own `next` says stop, synchronously.
      return cutWith((e$) =>
        defer(() => {
          const stop = new Subject<void>();
          let seen = 0;
          return e$.pipe(
            takeUntil(stop),
            tap(() => {
              if (++seen === cut.n) stop.next();
            }),
          );
        }),
      );
    case 'at':
      return { unsubscribeAt: cut.t };
    case 'takeUntil-timer':
      // In virtual mode `TestScheduler.run` makes the default scheduler virtual.
      return cutWith((e$) => e$.pipe(takeUntil(timer(cut.t))));
  }
}

async function checkUnsubscribe(scenario: Scenario, cut: Cut): Promise<void> {
  const outcome = await runScenario(scenario, cutOptions(cut));
  const detail = describeOutcome(outcome);
  const at = outcome.atTeardown;
  expect({ tornDown: at !== undefined, detail }).toMatchObject({ tornDown: true });
  if (!at) return;
  // Nothing starts after the teardown: no model call, no subscription, no tool execution.
  const started = (s: typeof at) => ({
    streamCalls: s.streamCalls,
    subscriptions: s.subscriptions,
    toolStarts: s.toolStarts,
  });
  expect(started(outcome.final)).toEqual(started(at));
  // Every model stream was torn down by then (one still inside its synchronous subscribe right
  // after), every unfinished tool aborted…
  expect({ liveStreams: at.liveStreams, detail }).toMatchObject({ liveStreams: 0 });
  expect(outcome.final.teardowns).toBe(outcome.final.subscriptions);
  expect({ openNotAborted: at.openNotAborted, detail }).toMatchObject({ openNotAborted: [] });
  expect(outcome.final.openNotAborted).toEqual([]);
  // …and no timer of the run is left.
  if (scenario.mode === 'virtual')
    expect({ timersLeft: outcome.timersLeft, detail }).toMatchObject({ timersLeft: 0 });
  // Law 5: the state ends in a terminal phase with a closed, valid transcript.
  expect(isTerminal(outcome.state.phase)).toBe(true);
  expect(transcriptIssues(outcome)).toEqual({ state: [], agentEnd: [] });
}

describe('Rx law 3: unsubscribe means stop, at any moment', () => {
  for (const mode of ['virtual', 'real'] as const) {
    it(
      `take(n), first(), takeWhile, unsubscribe inside next or at any time stop everything, eager calls too (${mode} time)`,
      async () => {
        await fc.assert(
          fc.asyncProperty(scenarioArb(mode, { maxMs: 50, eager: true }), cutArb(mode), checkUnsubscribe),
          lawParams(mode === 'virtual' ? 100 : 40, mode === 'virtual' ? 2_000 : 400),
        );
      },
      lawTimeout(20_000, 600_000),
    );
  }
});
