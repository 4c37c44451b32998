import {
  asyncScheduler,
  lastValueFrom,
  toArray,
  type SchedulerAction,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import { z } from 'zod';
import {
  runAgent,
  tool,
  withState,
  Agent,
  type AgentEvent,
  type AgentMessage,
  type AnyTool,
  type ChatModel,
} from '@rxagent/core';
import { scriptedModel, textTurn, toolCallTurn, type ScriptedTurn } from '@rxagent/testing';
import { baselineLoop, type BaselineEvent } from './baseline-loop.js';
import { textDeltaEvents } from './models/array-model.js';
import { asyncArrayModel } from './models/async-array-model.js';
import { neverModel } from './models/never-model.js';
import { noopTool, toolLoopModel } from './models/tool-loop-model.js';

// Both loops stamp messages with the scheduler's clock: a fixed one makes transcripts comparable.
class FixedClock implements SchedulerLike {
  now(): number {
    return 1_767_225_600_000;
  }
  schedule<T>(work: (this: SchedulerAction<T>, state?: T) => void, delay?: number, state?: T): Subscription {
    return asyncScheduler.schedule(work, delay, state);
  }
}
const clock = new FixedClock();

const add = tool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});
const later = tool({
  name: 'later',
  description: 'Answers after a while',
  parameters: z.object({ ms: z.number().int().min(0) }),
  execute: ({ ms }) =>
    new Promise<{ waited: number }>((resolve) => setTimeout(() => resolve({ waited: ms }), ms)),
});
const broken = tool({
  name: 'broken',
  description: 'Always throws',
  parameters: z.object({}),
  execute: () => {
    throw new Error('disk on fire');
  },
});
const tools = [add, later, broken];

/** Three steps: two calls (the slow one first, so they end out of order), then bad calls, then text. */
function threeStepTurns(): ScriptedTurn[] {
  return [
    toolCallTurn(
      [
        { name: 'later', args: { ms: 20 } },
        { name: 'add', args: { a: 2, b: 3 } },
      ],
      { text: 'Let me compute.' },
    ),
    toolCallTurn([
      { name: 'add', args: { a: 'two', b: 3 } },
      { name: 'nope', args: {} },
      { name: 'broken', args: {} },
      { name: 'add', argsText: '{"a": 1,' },
    ]),
    textTurn('The answer is 5.', { chunks: 4 }),
  ];
}

async function agentMessages(
  model: ChatModel,
  prompt: string,
  tools: Parameters<typeof runAgent>[0]['tools'],
) {
  const events = await lastValueFrom(
    runAgent({ model, tools, prompt, scheduler: clock, maxSteps: 50 }).pipe(toArray()),
  );
  const end = events.find((e): e is Extract<AgentEvent, { type: 'agent-end' }> => e.type === 'agent-end');
  return end?.messages;
}

async function baselineRun(model: ChatModel, prompt: string, loopTools: readonly AnyTool[] = tools) {
  const events = await lastValueFrom(
    baselineLoop({ model, tools: loopTools, prompt, scheduler: clock }).pipe(toArray()),
  );
  const end = events.at(-1);
  if (end?.type !== 'end') throw new Error(`the baseline loop ended with ${end?.type}`);
  return { events, messages: end.messages as AgentMessage[], steps: end.steps };
}

const deltaText = (events: BaselineEvent[]) =>
  events.map((e) => (e.type === 'delta' && e.kind === 'text' ? e.text : '')).join('');

describe('baselineLoop', () => {
  it('makes the transcript runAgent makes on a 3-step scripted run, from the same requests', async () => {
    const turns = threeStepTurns();
    const agentModel = scriptedModel(turns);
    const loopModel = scriptedModel(turns);
    const expected = await agentMessages(agentModel, 'What is 2 + 3?', tools);
    const { events, messages, steps } = await baselineRun(loopModel, 'What is 2 + 3?');

    expect(steps).toBe(3);
    expect(messages).toEqual(expected);
    expect(loopModel.requests).toEqual(agentModel.requests);
    // Results in call order, whatever order the tools ended in; errors the model can read.
    const results = messages.filter((m) => m.role === 'tool');
    expect(results.map((m) => [m.toolName, m.isError])).toEqual([
      ['later', false],
      ['add', false],
      ['add', true],
      ['nope', true],
      ['broken', true],
      ['add', true],
    ]);
    expect(deltaText(events)).toBe('Let me compute.The answer is 5.');
    // Each message is announced once, as it enters the transcript.
    expect(events.filter((e) => e.type === 'message').map((e) => e.message)).toEqual(messages);
  });

  it('ends the final state of withState and Agent with the same messages', async () => {
    const turns = threeStepTurns();
    const { messages } = await baselineRun(scriptedModel(turns), 'What is 2 + 3?');
    const run = withState(
      runAgent({ model: scriptedModel(turns), tools, prompt: 'What is 2 + 3?', scheduler: clock }),
    );
    await lastValueFrom(run.events$);
    expect(run.state$.value.messages).toEqual(messages);
    const agent = new Agent({ model: scriptedModel(turns), tools, scheduler: clock });
    await agent.prompt('What is 2 + 3?');
    expect(agent.messages).toEqual(messages);
  });

  it('runs the benchmark tool loop synchronously, as runAgent does, with the same transcript', () => {
    let end: BaselineEvent | undefined;
    baselineLoop({ model: toolLoopModel(3), tools: [noopTool], prompt: 'go', scheduler: clock }).subscribe(
      (e) => (end = e),
    );
    let expected: AgentMessage[] | undefined;
    runAgent({ model: toolLoopModel(3), tools: [noopTool], prompt: 'go', scheduler: clock }).subscribe(
      (e) => {
        if (e.type === 'agent-end') expected = e.messages;
      },
    );
    expect(end?.type === 'end' && end.messages).toEqual(expected);
    expect(end?.type === 'end' && end.steps).toBe(4);
  });

  it('keeps a flat stack over 10,000 synchronous steps', () => {
    let steps = 0;
    baselineLoop({ model: toolLoopModel(10_000), tools: [noopTool], prompt: 'go' }).subscribe((e) => {
      if (e.type === 'end') steps = e.steps;
    });
    expect(steps).toBe(10_001);
  });

  it('streams every delta of an asynchronous source and matches runAgent', async () => {
    const model = asyncArrayModel(textDeltaEvents(100));
    const { events, messages } = await baselineRun(model, 'stream', []);
    expect(events.filter((e) => e.type === 'delta')).toHaveLength(100);
    expect(deltaText(events)).toBe('x'.repeat(100));
    expect(messages).toEqual(await agentMessages(model, 'stream', []));
  });

  it('stops at maxSteps after the step tools, as runAgent does', async () => {
    const model = toolLoopModel(10);
    const { messages, steps } = await baselineRun(model, 'go', [noopTool]);
    expect([messages.length, steps]).toEqual([1 + 2 * 10 + 1, 11]); // no limit by default
    let limited: BaselineEvent | undefined;
    baselineLoop({ model, tools: [noopTool], prompt: 'go', maxSteps: 3, scheduler: clock }).subscribe(
      (e) => (limited = e),
    );
    let expected: AgentMessage[] | undefined;
    runAgent({ model, tools: [noopTool], prompt: 'go', maxSteps: 3, scheduler: clock }).subscribe((e) => {
      if (e.type === 'agent-end') expected = e.messages;
    });
    expect(limited?.type === 'end' && limited.messages).toEqual(expected);
  });

  it('cancels the model stream on unsubscribe and leaves nothing open', () => {
    const model = neverModel();
    const subs = [1, 2, 3].map(() => baselineLoop({ model, prompt: 'hi' }).subscribe());
    expect(model.live).toBe(3);
    for (const sub of subs) sub.unsubscribe();
    expect(model.live).toBe(0);
  });

  it('aborts the signal of a running tool on unsubscribe', async () => {
    let signal: AbortSignal | undefined;
    const waits = tool({
      name: 'waits',
      description: 'Waits for its signal',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        signal = ctx.signal;
        return new Promise<string>(() => undefined);
      },
    });
    const model = scriptedModel([toolCallTurn({ name: 'waits', args: {} })]);
    const sub = baselineLoop({ model, tools: [waits], prompt: 'go' }).subscribe();
    await Promise.resolve();
    expect(signal?.aborted).toBe(false);
    sub.unsubscribe();
    expect(signal?.aborted).toBe(true);
  });

  it('fails the run when the model stream ends without a finish, or errors', async () => {
    const cut = scriptedModel([{ events: textDeltaEvents(3).slice(0, 3) }]);
    await expect(lastValueFrom(baselineLoop({ model: cut, prompt: 'go' }))).rejects.toThrow(
      'stream ended without a finish event',
    );
    const failing = scriptedModel([{ events: [], error: new Error('socket hang up') }]);
    await expect(lastValueFrom(baselineLoop({ model: failing, prompt: 'go' }))).rejects.toThrow(
      'socket hang up',
    );
  });
});
