import fc from 'fast-check';
import { Agent, parseTranscript, type AgentMessage } from '@rxagent/core';
import { InvalidTranscriptError, validateMessageSequence } from '@rxagent/core/provider';
import { faultRuns, faultSeed, faultTimeout } from './fault-config.js';
import { syncModel } from './sync-run.js';

const ids = fc.constantFrom('a', 'b', 'c');
const usage = { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 2 };
const user = fc.record({ role: fc.constant('user'), content: fc.string(), timestamp: fc.nat() });
const toolCall = fc.record({
  type: fc.constant('tool-call'),
  id: ids,
  name: fc.constantFrom('x', 'y'),
  args: fc.jsonValue(),
});
const assistant = fc.record({
  role: fc.constant('assistant'),
  content: fc.array(fc.oneof(fc.record({ type: fc.constant('text'), text: fc.string() }), toolCall), {
    maxLength: 3,
  }),
  stopReason: fc.constantFrom('stop', 'tool-calls'),
  usage: fc.constant(usage),
  provider: fc.constant('p'),
  model: fc.constant('m'),
  timestamp: fc.nat(),
});
const result = fc.record({
  role: fc.constant('tool'),
  toolCallId: ids,
  toolName: fc.constantFrom('x', 'y'),
  content: fc.constant([{ type: 'text', text: 'r' }]),
  isError: fc.boolean(),
  timestamp: fc.nat(),
});
const garbage = fc.oneof(
  fc.anything(),
  fc.record({ role: fc.oneof(fc.string(), fc.constant(undefined)), content: fc.anything() }),
  fc.record({
    role: fc.constantFrom('user', 'assistant', 'tool', 'system', 'custom'),
    content: fc.anything(),
  }),
  fc.record({ role: fc.constant('assistant'), content: fc.array(fc.anything(), { maxLength: 3 }) }),
  fc.record({ role: fc.constant('tool'), toolCallId: fc.anything(), content: fc.array(fc.anything()) }),
);
/** Mostly message-shaped items (so valid transcripts come up too), with some garbage. */
const transcriptArb = fc.array(
  fc.oneof(
    { weight: 4, arbitrary: user },
    { weight: 4, arbitrary: assistant },
    { weight: 4, arbitrary: result },
    { weight: 1, arbitrary: garbage },
  ),
  { maxLength: 8 },
);
const inputArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: transcriptArb },
  { weight: 1, arbitrary: transcriptArb.map((t) => JSON.stringify(t)) },
  { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.anything() },
);

const start: AgentMessage[] = [
  { role: 'user', content: 'first question', timestamp: 1 },
  {
    role: 'assistant',
    content: [{ type: 'text', text: 'first answer' }],
    stopReason: 'stop',
    usage,
    provider: 'p',
    model: 'm',
    timestamp: 2,
  },
];

describe('imported transcripts', () => {
  it(
    'are taken whole, or refused with InvalidTranscriptError keeping the old transcript — never a crash',
    async () => {
      let accepted = 0;
      let refused = 0;
      await fc.assert(
        fc.asyncProperty(inputArb, async (input) => {
          const agent = new Agent({ model: syncModel([]), messages: start });
          const before = agent.messages;
          let error: unknown;
          try {
            agent.importMessages(input as string);
          } catch (e) {
            error = e;
          }
          if (error !== undefined) {
            refused++;
            expect(InvalidTranscriptError.isInstance(error)).toBe(true);
            expect((error as Error).message).toMatch(/transcript/i);
            expect(agent.messages).toBe(before);
            return;
          }
          accepted++;
          expect(validateMessageSequence(agent.messages)).toEqual([]);
          // The agent goes on from what it imported.
          const result = await agent.prompt('and now?');
          expect(result.reason).toBe('completed');
          expect(validateMessageSequence(agent.messages)).toEqual([]);
        }),
        { numRuns: faultRuns(400, 5_000), seed: faultSeed() },
      );
      expect(accepted).toBeGreaterThan(0);
      expect(refused).toBeGreaterThan(0);
    },
    faultTimeout(60_000, 600_000),
  );

  it('refuses missing results, orphan results and unknown roles, naming the place', () => {
    const agent = new Agent({ model: syncModel([]), messages: start });
    const call = { type: 'tool-call', id: 'a', name: 'x', args: {} };
    const cases: [unknown[], RegExp][] = [
      [
        [{ role: 'assistant', content: [call], stopReason: 'tool-calls', usage, timestamp: 0 }],
        /missing-tool-result at message 0 \(a\)/,
      ],
      [
        [{ role: 'tool', toolCallId: 'z', toolName: 'x', content: [], isError: false, timestamp: 0 }],
        /orphan-tool-result at message 0 \(z\)/,
      ],
      [[{ role: 'admin', content: 'hi' }], /invalid-message at message 0/],
    ];
    for (const [input, where] of cases) {
      expect(() => agent.importMessages(input)).toThrow(where);
      expect(agent.messages).toEqual(start);
    }
    expect(() => parseTranscript('{not json')).toThrow(InvalidTranscriptError);
  });

  // Inputs that used to crash importMessages with a TypeError.
  const crashes: [string, unknown[]][] = [
    ['an assistant part that is null', [{ role: 'assistant', content: [null] }]],
    ['an assistant part that is undefined', [{ role: 'assistant', content: [undefined] }]],
    ['a cycle inside a message', [cyclicUserMessage()]],
    ['a BigInt inside a message', [{ role: 'user', content: 'x', timestamp: BigInt(1) }]],
  ];
  for (const [what, input] of crashes) {
    it(`refuses ${what} with InvalidTranscriptError`, () => {
      const agent = new Agent({ model: syncModel([]), messages: start });
      const before = agent.messages;
      let error: unknown;
      try {
        agent.importMessages(input);
      } catch (e) {
        error = e;
      }
      expect(agent.messages).toBe(before);
      expect(InvalidTranscriptError.isInstance(error)).toBe(true);
    });
  }
});

function cyclicUserMessage(): unknown {
  const part: Record<string, unknown> = { type: 'text', text: 'x' };
  part.self = part;
  return { role: 'user', content: [part], timestamp: 0 };
}
