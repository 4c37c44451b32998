import fc from 'fast-check';
import { VirtualTimeScheduler } from 'rxjs';
import {
  emptyUsage,
  isTerminal,
  ProviderError,
  RxAgentError,
  runAgent,
  tool,
  withState,
  type AgentEvent,
} from '@rxagent/core';
import { validateMessageSequence } from '@rxagent/core/provider';
import { z } from 'zod';
import { faultRuns, faultSeed, faultTimeout } from './fault-config.js';
import { installProcessGuards } from './process-guards.js';
import { syncModel } from './sync-run.js';
import { driveVirtualTime, flushReports } from './virtual-time.js';

const index = fc.integer({ min: -1, max: 3 });
const text = fc.oneof(fc.string(), fc.constant(undefined as unknown as string));
const part = fc.oneof(
  fc.record({ type: fc.constant('text'), text: fc.string() }),
  fc.record({
    type: fc.constant('tool-call'),
    id: fc.constantFrom('a', 'b'),
    name: fc.constantFrom('echo', 'nope'),
    args: fc.jsonValue(),
  }),
  fc.anything(),
);
const finishMessage = fc.oneof(
  fc.record({
    role: fc.constant('assistant'),
    content: fc.array(part, { maxLength: 3 }),
    stopReason: fc.constantFrom('stop', 'tool-calls', 'length', 'error', 'bogus'),
    usage: fc.constant(emptyUsage()),
    provider: fc.constant('p'),
    model: fc.constant('m'),
    timestamp: fc.constant(0),
  }),
  fc.anything(),
);
/** Events in any order, wrong indices, missing fields, and things that are not events at all. */
const eventArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.record({ type: fc.constant('text-delta'), index, text }),
  fc.record({
    type: fc.constant('thinking-delta'),
    index,
    text,
    signature: fc.option(fc.string(), { nil: undefined }),
  }),
  fc.record({
    type: fc.constant('toolcall-start'),
    index,
    id: fc.constantFrom('a', 'b'),
    name: fc.constantFrom('echo', 'nope'),
  }),
  fc.record({ type: fc.constant('toolcall-delta'), index, argsText: text }),
  fc.record({ type: fc.constant('toolcall-end'), index, call: part }),
  fc.record({ type: fc.constant('usage'), usage: fc.oneof(fc.constant(emptyUsage()), fc.anything()) }),
  fc.record({
    type: fc.constant('finish'),
    reason: fc.constantFrom('stop', 'tool-calls', 'length'),
    message: finishMessage,
  }),
  fc.constantFrom(
    null,
    undefined,
    42,
    'text',
    {},
    { type: 'bogus' },
    { type: 'finish' },
    { type: 'text-delta' },
  ),
);
const endArb = fc.oneof(
  fc.constant(undefined),
  fc.constant(new ProviderError('server error', { status: 500 })),
  fc.constant(new ProviderError('bad request', { status: 400 })),
  fc.constant(new Error('plain error')),
  fc.constant('a string thrown'),
);

const echo = tool({
  name: 'echo',
  description: 'echo',
  parameters: z.object({}).passthrough(),
  execute: () => 'ok',
});

describe('model streams with events out of order or garbage', () => {
  const guard = installProcessGuards();
  afterAll(() => guard.uninstall());

  it(
    'end cleanly or with a typed error, never hang, and keep the transcript valid',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(eventArb, { maxLength: 12 }), endArb, async (events, error) => {
          const scheduler = new VirtualTimeScheduler();
          const model = syncModel([{ events, error }]);
          const { events$, state$ } = withState(
            runAgent({
              model,
              tools: [echo],
              prompt: 'go',
              scheduler,
              maxRetries: 1,
              retryBackoff: { initialDelayMs: 1, jitter: 0 },
              maxSteps: 4,
            }),
          );
          // Written by the callbacks (an object, so the type checker does not narrow it away).
          const end: { outcome: 'pending' | 'complete' | 'error'; failure?: unknown } = {
            outcome: 'pending',
          };
          const seen: AgentEvent[] = [];
          events$.subscribe({
            next: (e) => seen.push(e),
            error: (e: unknown) => Object.assign(end, { outcome: 'error', failure: e }),
            complete: () => (end.outcome = 'complete'),
          });
          await driveVirtualTime(scheduler, () => end.outcome !== 'pending');
          expect(end.outcome).not.toBe('pending');
          if (end.outcome === 'error') {
            expect({ typed: RxAgentError.isInstance(end.failure), failure: end.failure }).toMatchObject({
              typed: true,
            });
          } else {
            expect(seen.at(-1)?.type).toBe('agent-end');
          }
          expect(isTerminal(state$.value.phase)).toBe(true);
          expect(validateMessageSequence(state$.value.messages)).toEqual([]);
          // Events stay plain JSON (they go over the wire as they are).
          expect(() => JSON.stringify(seen)).not.toThrow();
        }),
        { numRuns: faultRuns(300, 5_000), seed: faultSeed() },
      );
      await flushReports();
      expect(guard.faults.unhandledRejections).toEqual([]);
      expect(guard.faults.rxjsUnhandledErrors).toEqual([]);
    },
    faultTimeout(60_000, 600_000),
  );

  // Inputs that used to hang a run or leave tool results without a unique call (fixed in
  // llmStep: parts are checked, missing or repeated tool-call ids made unique).
  const finishWith = (content: unknown[]): unknown => ({
    type: 'finish',
    reason: 'tool-calls',
    message: {
      role: 'assistant',
      content,
      stopReason: 'tool-calls',
      usage: emptyUsage(),
      provider: 'p',
      model: 'm',
      timestamp: 0,
    },
  });
  const call = (id: unknown) => ({ type: 'tool-call', id, name: 'echo', args: {} });
  const pinned: [string, unknown[]][] = [
    ['a null part in the finish message ends the run with a typed error', [finishWith([null])]],
    [
      'a toolcall-end whose call is null ends the run with a typed error',
      [
        { type: 'toolcall-end', index: 0, call: null },
        { type: 'finish', reason: 'stop', message: {} },
      ],
    ],
    ['two calls with the same id keep the transcript valid', [finishWith([call('a'), call('a')])]],
    [
      'two toolcall-deltas without start keep the transcript valid',
      [
        { type: 'toolcall-delta', index: 0, argsText: '{}' },
        { type: 'toolcall-delta', index: 1, argsText: '{}' },
        { type: 'finish', reason: 'tool-calls', message: {} },
      ],
    ],
    [
      'a call without an id keeps the transcript valid',
      [finishWith([{ type: 'tool-call', name: 'echo', args: {} }])],
    ],
  ];
  for (const [what, events] of pinned) {
    it(what, async () => {
      const scheduler = new VirtualTimeScheduler();
      const { events$, state$ } = withState(
        runAgent({ model: syncModel([{ events }]), tools: [echo], prompt: 'go', scheduler, maxSteps: 3 }),
      );
      let ended = false;
      events$.subscribe({ error: () => (ended = true), complete: () => (ended = true) });
      await driveVirtualTime(scheduler, () => ended);
      expect(ended).toBe(true);
      expect(validateMessageSequence(state$.value.messages)).toEqual([]);
    });
  }
});
