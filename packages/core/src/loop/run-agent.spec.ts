import { z } from 'zod';
import { take, tap } from 'rxjs';
import {
  assistantMessage,
  collectEvents,
  eventTypes,
  scriptedModel,
  textTurn,
  toolCallTurn,
} from '@rxagent/testing';
import { AgentConfigError } from '../errors/agent-errors.js';
import { executeTools } from '../operators/execute-tools.js';
import { llmStep } from '../operators/llm-step.js';
import { stopWhen } from '../operators/stop-when.js';
import { stepCountIs } from '../stop/stop-conditions.js';
import { tool } from '../tools/tool.js';
import { runAgent } from './run-agent.js';

const echo = tool({
  name: 'echo',
  description: 'Echo the text',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text.toUpperCase(),
});

describe('runAgent event order', () => {
  it('emits the documented order for a text-only run', async () => {
    const model = scriptedModel([textTurn('Hello there')]);
    const events = await collectEvents(runAgent({ model, prompt: 'hi', runId: 'r1' }));
    expect(eventTypes(events)).toEqual([
      'agent-start',
      'turn-start',
      'message-start:user',
      'message-end:user',
      'message-start:assistant',
      'message-update*',
      'message-end:assistant',
      'turn-end',
      'agent-end',
    ]);
    const end = events[events.length - 1];
    expect(end).toMatchObject({ type: 'agent-end', reason: 'completed', steps: 1 });
  });

  it('emits the documented order for a two-tool run', async () => {
    const model = scriptedModel([
      toolCallTurn([
        { name: 'echo', args: { text: 'a' }, id: 'c1' },
        { name: 'echo', args: { text: 'b' }, id: 'c2' },
      ]),
      textTurn('Done'),
    ]);
    const events = await collectEvents(runAgent({ model, tools: [echo], prompt: 'go', toolConcurrency: 1 }));
    expect(eventTypes(events)).toEqual([
      'agent-start',
      'turn-start',
      'message-start:user',
      'message-end:user',
      'message-start:assistant',
      'message-update*',
      'message-end:assistant',
      'tool-start',
      'tool-end',
      'tool-start',
      'tool-end',
      'message-start:tool',
      'message-end:tool',
      'message-start:tool',
      'message-end:tool',
      'turn-end',
      'turn-start',
      'message-start:assistant',
      'message-update*',
      'message-end:assistant',
      'turn-end',
      'agent-end',
    ]);
  });
});

describe('runAgent is cold', () => {
  it('calls nothing before subscribe, and each subscription is an independent run', async () => {
    const model = scriptedModel([textTurn('one'), textTurn('two')]);
    const run$ = runAgent({ model, prompt: 'hi' });
    expect(model.calls).toBe(0);
    const first = await collectEvents(run$);
    const second = await collectEvents(run$);
    expect(model.calls).toBe(2);
    const runIds = [first[0], second[0]].map((e) => (e?.type === 'agent-start' ? e.runId : ''));
    expect(runIds[0]).not.toBe(runIds[1]);
    const answers = [first, second].map((events) => {
      const end = events.at(-1);
      return end?.type === 'agent-end' ? end.messages.at(-1) : undefined;
    });
    expect(answers.map((m) => (m?.role === 'assistant' ? m.content[0] : undefined))).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two' },
    ]);
    // The second run did not see the first run's messages.
    expect(model.requests[1]?.messages).toHaveLength(1);
  });

  it('stops a synchronous run as soon as take(n) unsubscribes', async () => {
    const model = scriptedModel([toolCallTurn({ name: 'echo', args: { text: 'x' } }), textTurn('done')]);
    const events = await collectEvents(runAgent({ model, tools: [echo], prompt: 'go' }).pipe(take(3)));
    expect(events.map((e) => e.type)).toEqual(['agent-start', 'turn-start', 'message-start']);
    expect(model.calls).toBe(0);
  });
});

describe('runAgent config', () => {
  const model = scriptedModel([textTurn('ok'), textTurn('ok'), textTurn('ok'), textTurn('ok')]);

  it('errors with AgentConfigError when there is no model, no prompt, or clashing tools', async () => {
    await expect(collectEvents(runAgent({ prompt: 'x' } as never))).rejects.toThrow(/runAgent needs a model/);
    await expect(collectEvents(runAgent({ model }))).rejects.toThrow(/needs a prompt or prior messages/);
    await expect(collectEvents(runAgent({ model, prompt: 'x', tools: [echo, echo] }))).rejects.toBeInstanceOf(
      AgentConfigError,
    );
  });

  it('accepts a prompt as text, a message or messages, after the prior transcript', async () => {
    const m = scriptedModel([textTurn('a'), textTurn('b')]);
    await collectEvents(
      runAgent({ model: m, prompt: { role: 'user', content: 'as message', timestamp: 1 } }),
    );
    await collectEvents(
      runAgent({
        model: m,
        messages: [
          { role: 'user', content: 'before', timestamp: 0 },
          assistantMessage([{ type: 'text', text: 'x' }]),
        ],
        prompt: [{ role: 'user', content: 'one', timestamp: 1 }],
      }),
    );
    expect(m.requests[0]?.messages).toEqual([{ role: 'user', content: 'as message', timestamp: 1 }]);
    expect(m.requests[1]?.messages.map((x) => x.role)).toEqual(['user', 'assistant', 'user']);
  });

  it('repairs a prior transcript with dangling tool calls, with a warning', async () => {
    const m = scriptedModel([textTurn('ok')]);
    const prior = [
      { role: 'user' as const, content: 'q', timestamp: 0 },
      assistantMessage([{ type: 'tool-call', id: 'lost', name: 'echo', args: {} }], 'tool-calls'),
      {
        role: 'tool' as const,
        toolCallId: 'orphan',
        toolName: 'x',
        content: [],
        isError: false,
        timestamp: 0,
      },
    ];
    const events = await collectEvents(runAgent({ model: m, messages: prior, prompt: 'again' }));
    expect(events.find((e) => e.type === 'warning')).toMatchObject({
      message: expect.stringMatching(
        /^Repaired the prior transcript: .*orphan-tool-result \(orphan\).*missing-tool-result \(lost\)/,
      ),
    });
    expect(m.requests[0]?.messages.map((x) => x.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(m.requests[0]?.messages[2]).toMatchObject({ toolCallId: 'lost', isError: true });
  });

  it('uses the pipeline given instead of the default one', async () => {
    const m = scriptedModel([toolCallTurn({ name: 'echo', args: { text: 'x' } }), textTurn('done')]);
    const seen: string[] = [];
    const events = await collectEvents(
      runAgent({
        model: m,
        tools: [echo],
        prompt: 'go',
        pipeline: (turn$) =>
          turn$.pipe(
            llmStep(),
            tap((e) => seen.push(e.type)),
            executeTools({ concurrency: 1 }),
            stopWhen(stepCountIs(1)),
          ),
      }),
    );
    // The operators see the public events and the turn itself.
    expect(seen).toEqual([
      'turn-start',
      'message-start',
      'message-end',
      'message-start',
      'message-update',
      'message-update',
      'message-end',
      'turn',
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'steps-limit' });
    expect(m.calls).toBe(1);
  });

  it('closes tool calls when the pipeline has no executeTools, and fails without llmStep', async () => {
    const m = scriptedModel([toolCallTurn({ name: 'echo', args: { text: 'x' } }), textTurn('done')]);
    const events = await collectEvents(
      runAgent({ model: m, tools: [echo], prompt: 'go', pipeline: (t$) => t$.pipe(llmStep()) }),
    );
    expect(events.find((e) => e.type === 'message-end' && e.message.role === 'tool')).toMatchObject({
      message: {
        isError: true,
        content: [{ type: 'text', text: 'Tool call was not executed: the pipeline has no executeTools().' }],
      },
    });
    await expect(collectEvents(runAgent({ model: m, prompt: 'go', pipeline: (t$) => t$ }))).rejects.toThrow(
      /llmStep/,
    );
  });

  it('puts every event in JSON as it is', async () => {
    const m = scriptedModel([toolCallTurn({ name: 'echo', args: { text: 'x' } }), textTurn('done')]);
    const events = await collectEvents(runAgent({ model: m, tools: [echo], prompt: 'go' }));
    expect(JSON.parse(JSON.stringify(events))).toEqual(events);
  });
});
