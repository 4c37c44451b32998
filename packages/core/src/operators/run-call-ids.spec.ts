import { z } from 'zod';
import { collectEvents, scriptedModel, textTurn, toolCallTurn, usage } from '@rxagent/testing';
import type { AgentEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import type { AssistantMessage, ToolCallPart, ToolResultMessage } from '../messages/types.js';
import { tool } from '../tools/tool.js';
import { AppendLog } from '../util/append-log.js';
import { callIdsInUse, providerMessages } from './run-call-ids.js';

// DESIGN.md "Ids are unique per run": a provider that repeats or omits tool-call ids gets
// run-unique ones in the transcript, and reads its own ids back in its requests.

const pay = tool({
  name: 'pay',
  description: 'Pay an amount',
  parameters: z.object({ cents: z.number() }),
  needsApproval: true,
  execute: ({ cents }, ctx) => `paid ${cents} (${ctx.toolCallId})`,
});

const calls = (events: AgentEvent[]): ToolCallPart[] =>
  events.flatMap((e) =>
    e.type === 'message-end' && e.message.role === 'assistant'
      ? e.message.content.filter((p): p is ToolCallPart => p.type === 'tool-call')
      : [],
  );

describe('tool-call ids are unique per run', () => {
  it('gives a call_0 repeated over three turns three ids, and sends call_0 back to the provider', async () => {
    const model = scriptedModel([
      toolCallTurn({ id: 'call_0', name: 'pay', args: { cents: 100 } }),
      toolCallTurn({ id: 'call_0', name: 'pay', args: { cents: 200 } }),
      toolCallTurn({ id: 'call_0', name: 'pay', args: { cents: 300 } }),
      textTurn('Paid three times.'),
    ]);
    const approvals: string[] = [];
    const events = await collectEvents(
      runAgent({
        model,
        tools: [pay],
        prompt: 'Pay three times.',
        approver: (request) => {
          approvals.push(request.toolCallId);
          return Promise.resolve({ approved: true });
        },
      }),
    );
    const ids = calls(events).map((c) => c.id);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe('call_0');
    expect(calls(events).map((c) => c.providerId)).toEqual([undefined, 'call_0', 'call_0']);
    expect(approvals).toEqual(ids);
    const starts = events.filter((e) => e.type === 'tool-start').map((e) => e.toolCallId);
    expect(starts).toEqual(ids);
    const results = events.flatMap((e) =>
      e.type === 'message-end' && e.message.role === 'tool' ? [e.message] : [],
    );
    expect(results.map((r) => r.toolCallId)).toEqual(ids);
    expect(results.map((r) => (r.content[0] as { text: string }).text)).toEqual(
      ids.map((id, i) => `paid ${(i + 1) * 100} (${id})`),
    );
    // The provider reads its own ids: every call and every result as call_0.
    const last = model.requests[3]?.messages ?? [];
    const sent = last.flatMap((m) =>
      m.role === 'assistant'
        ? m.content.flatMap((p) => (p.type === 'tool-call' ? [`call:${p.id}:${String(p.providerId)}`] : []))
        : m.role === 'tool'
          ? [`result:${m.toolCallId}`]
          : [],
    );
    expect(sent).toEqual([
      'call:call_0:undefined',
      'result:call_0',
      'call:call_0:undefined',
      'result:call_0',
      'call:call_0:undefined',
      'result:call_0',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  });

  it('names calls without an id, and repeats within a message, uniquely', async () => {
    const model = scriptedModel([
      toolCallTurn([
        { id: '', name: 'pay', args: { cents: 1 } },
        { id: 'x', name: 'pay', args: { cents: 2 } },
        { id: 'x', name: 'pay', args: { cents: 3 } },
      ]),
      toolCallTurn([{ id: '', name: 'pay', args: { cents: 4 } }]),
      textTurn('ok'),
    ]);
    const events = await collectEvents(
      runAgent({ model, tools: [pay], prompt: 'go', approver: () => Promise.resolve({ approved: true }) }),
    );
    const ids = calls(events).map((c) => c.id);
    expect(new Set(ids).size).toBe(4);
    expect(ids.every((id) => id !== '')).toBe(true);
    // An id the provider never gave is sent back as the run's id; a repeated one as the provider's.
    expect(calls(events).map((c) => c.providerId)).toEqual([undefined, undefined, 'x', undefined]);
  });

  it('avoids ids of the prior transcript', async () => {
    const prior: AssistantMessage = {
      role: 'assistant',
      content: [{ type: 'tool-call', id: 'call_1', name: 'pay', args: { cents: 1 } }],
      stopReason: 'tool-calls',
      usage: usage(),
      provider: 'scripted',
      model: 'scripted-model',
      timestamp: 0,
    };
    const priorResult: ToolResultMessage = {
      role: 'tool',
      toolCallId: 'call_1',
      toolName: 'pay',
      content: [{ type: 'text', text: 'paid 1' }],
      isError: false,
      timestamp: 0,
    };
    const model = scriptedModel([
      toolCallTurn({ id: 'call_1', name: 'pay', args: { cents: 2 } }),
      textTurn('ok'),
    ]);
    const events = await collectEvents(
      runAgent({
        model,
        tools: [pay],
        messages: [prior, priorResult],
        prompt: 'again',
        approver: () => Promise.resolve({ approved: true }),
      }),
    );
    expect(calls(events).map((c) => c.id)).not.toContain('call_1');
    expect(calls(events)[0]?.providerId).toBe('call_1');
  });

  it('answers for each snapshot of a transcript by its own length', () => {
    const message = (id: string): AssistantMessage => ({
      role: 'assistant',
      content: [{ type: 'tool-call', id, name: 'pay', args: {}, providerId: 'p' }],
      stopReason: 'tool-calls',
      usage: usage(),
      provider: 'scripted',
      model: 'scripted-model',
      timestamp: 0,
    });
    const a = AppendLog.of([message('a')]);
    const b = a.append(message('b'));
    expect(callIdsInUse(b)('b')).toBe(true);
    expect(callIdsInUse(a)('b')).toBe(false); // read after b, still not in a
    const fork = a.append(message('c'));
    expect(callIdsInUse(fork)('c')).toBe(true);
    expect(callIdsInUse(fork)('b')).toBe(false);
    const plain = AppendLog.of([{ role: 'user' as const, content: 'hi', timestamp: 0 }]);
    const messages = plain.view();
    expect(providerMessages(plain, messages)).toBe(messages);
  });

  it("maps the model's own view once per message as it grows, the same as mapping the request", () => {
    const asked = (id: string, providerId: string): AssistantMessage => ({
      role: 'assistant',
      content: [{ type: 'tool-call', id, name: 'pay', args: {}, providerId }],
      stopReason: 'tool-calls',
      usage: usage(),
      provider: 'scripted',
      model: 'scripted-model',
      timestamp: 0,
    });
    const result = (toolCallId: string): ToolResultMessage => ({
      role: 'tool',
      toolCallId,
      toolName: 'pay',
      content: [{ type: 'text', text: 'ok' }],
      isError: false,
      timestamp: 0,
    });
    let log = AppendLog.of<AssistantMessage | ToolResultMessage>([]);
    const seen: (readonly unknown[])[] = [];
    for (let step = 1; step <= 3; step++) {
      log = log.append(asked(`call_0_${step}`, 'call_0'), result(`call_0_${step}`));
      const view = providerMessages(log, log.view(), log);
      expect(view).toEqual(providerMessages(log, [...log.view()]));
      // Both the call and its result carry the provider's own id.
      const ids = view.map((m) => (m.role === 'tool' ? m.toolCallId : (m.content as ToolCallPart[])[0]?.id));
      expect(ids).toEqual(Array.from({ length: step * 2 }, () => 'call_0'));
      seen.push(view);
    }
    // An earlier snapshot still reads its own length, not the grown one.
    expect(seen[0]).toHaveLength(2);
    expect(providerMessages(log.prefix(2), log.prefix(2).view(), log.prefix(2))).toEqual(seen[0]);
  });
});
