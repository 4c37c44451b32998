import fc from 'fast-check';
import { lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import type { AgentEvent } from '../../events/agent-event.js';
import { runAgent } from '../../loop/run-agent.js';
import type { ModelEvent } from '../../provider.js';
import type { AssistantMessage } from '../../messages/types.js';
import { MessageBuilder } from '../../model/message-builder.js';
import { tool } from '../../tools/tool.js';
import { WireFormatError, WireSequenceError } from '../wire-errors.js';
import { createWireDecoder } from './wire-decoder.js';
import { createWireEncoder } from './wire-encoder.js';

/** Events through the wire and back, each as JSON text in between. */
function roundTrip(events: AgentEvent[], firstSeq = 1): { decoded: AgentEvent[]; bytes: number } {
  const encoder = createWireEncoder();
  const decoder = createWireDecoder();
  let bytes = 0;
  const decoded = events.flatMap((event, i) => {
    const text = JSON.stringify(encoder.encode(event, firstSeq + i));
    bytes += Buffer.byteLength(text);
    const back = decoder.decode(JSON.parse(text));
    return back ? [back] : [];
  });
  return { decoded, bytes };
}

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const echo = tool({
  name: 'echo',
  description: 'echo',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

async function runEvents(turns: Parameters<typeof scriptedModel>[0]): Promise<AgentEvent[]> {
  const model = scriptedModel(turns);
  return lastValueFrom(runAgent({ model, tools: [echo], prompt: 'go' }).pipe(toArray()));
}

describe('the wire codec', () => {
  it('gives back the very events of a run, partial messages included', async () => {
    const events = await runEvents([
      toolCallTurn(
        [
          { name: 'echo', args: { text: 'a' } },
          { name: 'echo', args: { text: 'b' } },
        ],
        { text: 'Two calls.' },
      ),
      textTurn('Both echoed; all done here.', { chunks: 7 }),
    ]);
    const { decoded } = roundTrip(events);
    expect(decoded).toEqual(json(events));
    const updates = decoded.filter((e) => e.type === 'message-update');
    expect(updates.length).toBeGreaterThan(7);
  });

  it('sends a message-update as its delta, not the partial message', async () => {
    const events = await runEvents([textTurn('abcdefgh'.repeat(50), { chunks: 100 })]);
    const encoder = createWireEncoder();
    const wires = events.map((e) => encoder.encode(e));
    const updates = wires.filter((w) => w.type === 'message-update');
    // The first update of a message carries the message as it started (`base`); the rest, the delta.
    expect(Object.keys(updates[0] ?? {})).toEqual(['seq', 'type', 'delta', 'base']);
    expect((updates[0]?.base as { content: unknown[] }).content).toEqual([]);
    expect(updates.slice(1).every((w) => Object.keys(w).join() === 'seq,type,delta')).toBe(true);
  });

  it('is linear in the answer: a 20,000-character answer in 4-character deltas', async () => {
    const answer = 'abcd'.repeat(5000);
    const events = await runEvents([textTurn(answer, { chunks: 5000 })]);
    const { decoded, bytes } = roundTrip(events);
    expect(decoded).toEqual(json(events));
    // The fixed framing of a delta: its wire event with the text left out.
    const framing = JSON.stringify({
      seq: 9999,
      type: 'message-update',
      delta: { kind: 'text', text: '', index: 0 },
    }).length;
    const payload = bytes - events.length * framing;
    expect(payload / answer.length).toBeLessThanOrEqual(1.3);
  });

  it('folds any stream a builder makes: text, thinking, tool calls, parts, usage (property)', () => {
    const modelEvent = fc.oneof(
      fc.record({
        type: fc.constant('text-delta' as const),
        index: fc.nat(2),
        text: fc.string({ maxLength: 6 }),
      }),
      fc.record({
        type: fc.constant('thinking-delta' as const),
        index: fc.nat(2),
        text: fc.string({ maxLength: 6 }),
        signature: fc.option(fc.string({ maxLength: 4 }), { nil: undefined }),
      }),
      fc.record({
        type: fc.constant('toolcall-start' as const),
        index: fc.nat(3),
        id: fc.string(),
        name: fc.string(),
      }),
      fc.record({
        type: fc.constant('toolcall-delta' as const),
        index: fc.nat(3),
        argsText: fc.string({ maxLength: 6 }),
      }),
      fc.record({ index: fc.nat(3), name: fc.string({ maxLength: 4 }) }).map(({ index, name }) => ({
        type: 'toolcall-end' as const,
        index,
        call: { type: 'tool-call' as const, id: `c${index}`, name, args: { n: index } },
      })),
      fc.record({
        type: fc.constant('part' as const),
        index: fc.nat(3),
        part: fc.record({ type: fc.constant('text' as const), text: fc.string({ maxLength: 5 }) }),
      }),
      fc.nat(50).map((n) => ({
        type: 'usage' as const,
        usage: {
          inputTokens: n,
          outputTokens: n,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          totalTokens: 2 * n,
        },
      })),
    );
    fc.assert(
      fc.property(fc.array(modelEvent, { maxLength: 40 }), fc.nat(20), (modelEvents, join) => {
        const events = streamedMessage(modelEvents);
        expect(roundTrip(events).decoded).toEqual(json(events));
        // A reader joining later, with an encoder of its own, gets the same events from there on.
        const from = Math.min(join, events.length);
        expect(roundTrip(events.slice(from), from + 1).decoded).toEqual(json(events.slice(from)));
      }),
      { numRuns: 300 },
    );
  });

  it('carries sub-runs: their deltas too, each sub-run folded on its own', () => {
    const inner = streamedMessage([
      { type: 'text-delta', index: 0, text: 'sub ' },
      { type: 'text-delta', index: 0, text: 'answer' },
    ]);
    const path = [{ toolCallId: 'call_1', agent: 'scout', runId: 'r1/call_1/0' }];
    const other = [{ toolCallId: 'call_2', agent: 'scout', runId: 'r1/call_2/0' }];
    const events: AgentEvent[] = [
      { type: 'agent-start', runId: 'r1' },
      ...inner.flatMap((event, i): AgentEvent[] => [
        { type: 'subrun', toolCallId: 'call_1', path, event },
        { type: 'subrun', toolCallId: 'call_2', path: other, event: inner[i] as AgentEvent },
      ]),
    ];
    const encoder = createWireEncoder();
    const wires = events.map((e) => encoder.encode(e));
    const updates = wires.flatMap((w) => {
      const inner = w.event as { type: string; message?: unknown } | undefined;
      return inner?.type === 'message-update' ? [inner] : [];
    });
    // Each sub-run's first update carries the message as it started; every other one its delta only.
    expect(updates.map((u) => 'base' in u)).toEqual([true, true, false, false]);
    expect(updates.some((u) => 'message' in u)).toBe(false);
    expect(roundTrip(events).decoded).toEqual(json(events));
  });

  it('drops a duplicate, refuses a gap, skips an unknown type, and says what is wrong with bad data', () => {
    const decoder = createWireDecoder();
    expect(decoder.decode({ seq: 1, type: 'turn-start', step: 1 })).toEqual({ type: 'turn-start', step: 1 });
    expect(decoder.decode({ seq: 1, type: 'turn-start', step: 1 })).toBeUndefined();
    expect(decoder.decode({ seq: 2, type: 'hologram', beams: 3 })).toBeUndefined();
    expect(decoder.skipped).toBe(1);
    const gap = (() => {
      try {
        decoder.decode({ seq: 5, type: 'turn-start', step: 2 });
      } catch (error) {
        return error;
      }
    })();
    expect(WireSequenceError.isInstance(gap)).toBe(true);
    expect(gap).toMatchObject({ after: 2, got: 5 });
    const bad = [
      'not an object',
      { type: 'turn-start' },
      { seq: 1, step: 1 },
      { seq: 1, type: 'message-update', delta: { kind: 'text', text: 'x', index: 0 } },
      { seq: 1, type: 'message-update', delta: { kind: 'sound', text: 'x', index: 0 } },
      { seq: 1, type: 'message-end', message: { $m: 99 } },
      { seq: 1, type: 'turn-end', step: { message: { $m: 3 } } },
    ];
    for (const wire of bad) {
      expect(() => createWireDecoder().decode(wire)).toThrow(WireFormatError);
    }
  });
});

/** One assistant message streamed from model events, as the core emits it. */
function streamedMessage(modelEvents: ModelEvent[]): AgentEvent[] {
  const builder = new MessageBuilder('p', 'm', 5);
  const events: AgentEvent[] = [{ type: 'message-start', message: builder.message }];
  for (const event of modelEvents) {
    const delta = builder.apply(event);
    if (delta) events.push({ type: 'message-update', message: builder.message, delta });
  }
  const final: AssistantMessage = json(builder.message);
  events.push({ type: 'message-end', message: final });
  events.push({
    type: 'turn-end',
    step: {
      step: 1,
      message: final,
      toolCalls: final.content.filter((p) => p.type === 'tool-call'),
      toolResults: [],
      usage: final.usage,
      finishReason: 'stop',
    },
  });
  return events;
}
