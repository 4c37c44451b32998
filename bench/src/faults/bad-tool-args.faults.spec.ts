import fc from 'fast-check';
import { z } from 'zod';
import { contentText, jsonSchema, tool, type ToolResultMessage } from '@rxagent/core';
import { validateMessageSequence } from '@rxagent/core/provider';
import { faultRuns, faultSeed, faultTimeout } from './fault-config.js';
import { installProcessGuards } from './process-guards.js';
import { flushReports } from './virtual-time.js';
import { finalTextEvents, runToEnd, syncModel, toolCallEvents, toolResults } from './sync-run.js';

const tools = [
  tool({
    name: 'weather',
    description: 'zod-validated',
    parameters: z.object({ city: z.string(), days: z.number().int().min(1).optional() }),
    execute: ({ city }) => `sunny in ${city.slice(0, 20)}`,
  }),
  tool({
    name: 'lookup',
    description: 'ajv-validated',
    parameters: jsonSchema<{ id: number; tags?: string[] }>({
      type: 'object',
      properties: { id: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['id'],
    }),
    execute: ({ id }) => ({ found: id }),
  }),
  tool({ name: 'ping', description: 'no arguments', parameters: z.object({}), execute: () => 'pong' }),
];

/** Arrays (or objects) nested `depth` deep, built without recursion. */
function nested(depth: number, asObject: boolean): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = asObject ? { a: value } : [value];
  return value;
}

const hugeString = fc.integer({ min: 50_000, max: 2_000_000 }).map((n) => 'x'.repeat(n));
const argsArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue(),
  fc.record({ city: fc.jsonValue(), days: fc.jsonValue() }, { requiredKeys: [] }),
  fc.record({ id: fc.jsonValue(), tags: fc.jsonValue() }, { requiredKeys: [] }),
  fc.record({ city: hugeString }),
  hugeString,
  fc.tuple(fc.integer({ min: 1, max: 20_000 }), fc.boolean()).map(([d, o]) => nested(d, o)),
  fc
    .tuple(fc.integer({ min: 1, max: 20_000 }), fc.boolean())
    .map(([d, o]) => ({ city: 'x', days: nested(d, o) })),
);

/** A call as an adapter would emit it: parsed args, or unparsable raw text. */
const callArb = fc.record({
  name: fc.constantFrom('weather', 'lookup', 'ping', 'unknown_tool', ''),
  args: argsArb,
  malformed: fc.option(
    fc.oneof(
      fc.string(),
      hugeString.map((s) => `{"city": "${s}`),
    ),
    { nil: undefined },
  ),
});

describe('bad tool arguments', () => {
  const guard = installProcessGuards();
  afterAll(() => guard.uninstall());

  it(
    'always give a result or an error result, never a failed or hung run',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(callArb, { minLength: 1, maxLength: 3 }), async (calls) => {
          const model = syncModel([{ events: toolCallEvents(calls) }, { events: finalTextEvents() }]);
          const end = await runToEnd({ model, tools, prompt: 'go' });
          expect(end.error).toBeUndefined();
          expect(end.outcome).toBe('complete');
          expect(end.synchronous).toBe(true);
          const last = end.events.at(-1);
          expect(last?.type === 'agent-end' && last.reason).toBe('completed');
          const results = toolResults(end.events);
          expect(results.map((r) => r.toolCallId)).toEqual(calls.map((_c, i) => `call_${i}`));
          for (const [i, result] of results.entries()) {
            const call = calls[i] as (typeof calls)[number];
            const ok = ['weather', 'lookup', 'ping'].includes(call.name) && call.malformed === undefined;
            if (!ok) expect(result.isError).toBe(true);
            expect(typeof contentText(result)).toBe('string');
          }
          if (last?.type === 'agent-end') expect(validateMessageSequence(last.messages)).toEqual([]);
        }),
        { numRuns: faultRuns(150, 2_000), seed: faultSeed() },
      );
      await flushReports();
      expect(guard.faults.unhandledRejections).toEqual([]);
      expect(guard.faults.rxjsUnhandledErrors).toEqual([]);
    },
    faultTimeout(60_000, 600_000),
  );

  // A 1 MB malformed argument must not become a 1 MB error result sent back on every step.
  it('keeps the error result of huge unparsable arguments small', async () => {
    const raw = `{"city": "${'x'.repeat(1_000_000)}`;
    const model = syncModel([
      { events: toolCallEvents([{ name: 'weather', args: {}, malformed: raw }]) },
      { events: finalTextEvents() },
    ]);
    const end = await runToEnd({ model, tools, prompt: 'go' });
    const result = toolResults(end.events)[0] as ToolResultMessage;
    expect(result.isError).toBe(true);
    expect(contentText(result).length).toBeLessThan(10_000);
  });
});
