import { z } from 'zod';
import { map, of, tap, timer } from 'rxjs';
import {
  collectEvents,
  createTestScheduler,
  scriptedModel,
  textTurn,
  timeline,
  toMarbleLetters,
  toolCallTurn,
} from '@rxagent/testing';
import type { AgentEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import { MessageQueue } from '../turn/message-queue.js';
import { contentText } from '../messages/message-helpers.js';
import type { ToolResultMessage } from '../messages/types.js';
import { tool } from '../tools/tool.js';
import { executeTools } from './execute-tools.js';
import { llmStep } from './llm-step.js';
import { followUp, steer } from './steer.js';

const aborted: string[] = [];
const sleep = (name: string, interrupt: 'block' | 'cancel' = 'block') =>
  tool({
    name,
    description: name,
    parameters: z.object({ ms: z.number() }),
    concurrencySafe: false,
    interrupt,
    execute: ({ ms }, { scheduler, signal, toolCallId }) => {
      signal.addEventListener('abort', () => aborted.push(toolCallId));
      return timer(ms, scheduler).pipe(map(() => `slept ${ms}`));
    },
  });
const three = toolCallTurn([
  { name: 'sleep', args: { ms: 100 }, id: 'a' },
  { name: 'sleep', args: { ms: 100 }, id: 'b' },
  { name: 'sleep', args: { ms: 100 }, id: 'c' },
]);
const results = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'message-end' && e.message.role === 'tool' ? [e.message] : []));
const userTexts = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'message-end' && e.message.role === 'user' ? [e.message.content] : []));

beforeEach(() => (aborted.length = 0));

describe('steer', () => {
  it('delivers messages queued before the first call before it', async () => {
    const model = scriptedModel([textTurn('ok')]);
    await collectEvents(runAgent({ model, prompt: 'first', steering$: of('queued early') }));
    expect(model.requests[0]?.messages.map((m) => (m.role === 'user' ? m.content : m.role))).toEqual([
      'first',
      'queued early',
    ]);
  });

  it('interrupt: the running tool finishes, calls not started are skipped, the message comes next', () => {
    const events: AgentEvent[] = [];
    let model!: ReturnType<typeof scriptedModel>;
    createTestScheduler().run(({ hot, expectObservable }) => {
      model = scriptedModel([three, textTurn('ok')]);
      const input$ = hot('50ms m', { m: 'Stop, use the cache instead.' });
      const run$ = runAgent({ model, tools: [sleep('sleep')], prompt: 'go', steering$: input$ }).pipe(
        tap((e) => events.push(e)),
      );
      expectObservable(run$.pipe(toMarbleLetters())).toBe(
        timeline([0, 'ATSESUUUUUUEs'], [100, 'eseseSESESENTSESUUENZ|']),
      );
    });
    expect(results(events).map((r) => [r.toolCallId, contentText(r)])).toEqual([
      ['a', 'slept 100'],
      ['b', 'Skipped due to queued user message.'],
      ['c', 'Skipped due to queued user message.'],
    ]);
    expect(userTexts(events)).toEqual(['go', 'Stop, use the cache instead.']);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      role: 'user',
      content: 'Stop, use the cache instead.',
    });
  });

  it("interrupt: aborts a running tool marked interrupt: 'cancel' at once", () => {
    const events: AgentEvent[] = [];
    createTestScheduler().run(({ hot, expectObservable }) => {
      const model = scriptedModel([
        toolCallTurn({ name: 'fetch', args: { ms: 1000 }, id: 'f' }),
        textTurn('ok'),
      ]);
      const input$ = hot('50ms m', { m: 'never mind' });
      const run$ = runAgent({
        model,
        tools: [sleep('fetch', 'cancel')],
        prompt: 'go',
        steering$: input$,
      }).pipe(tap((e) => events.push(e)));
      expectObservable(run$.pipe(toMarbleLetters())).toBe(timeline([0, 'ATSESUUEs'], [50, 'eSENTSESUUENZ|']));
    });
    expect(aborted).toEqual(['f']);
    expect(contentText(results(events)[0] as ToolResultMessage)).toBe(
      'Tool call was cancelled: a user message arrived.',
    );
  });

  it('after-turn: nothing is skipped; the message comes after the batch', () => {
    const events: AgentEvent[] = [];
    createTestScheduler().run(({ hot }) => {
      const model = scriptedModel([three, textTurn('ok')]);
      const input$ = hot('50ms m', { m: 'also this' });
      runAgent({
        model,
        tools: [sleep('sleep')],
        prompt: 'go',
        pipeline: (t$) => t$.pipe(llmStep(), executeTools(), steer(input$, { mode: 'after-turn' })),
      }).subscribe((e) => events.push(e));
    });
    expect(results(events).map((r) => contentText(r))).toEqual(['slept 100', 'slept 100', 'slept 100']);
    expect(userTexts(events)).toEqual(['go', 'also this']);
  });

  it('keeps the run going when a message arrives during a final answer', () => {
    const events: AgentEvent[] = [];
    createTestScheduler().run(({ hot }) => {
      const model = scriptedModel([textTurn('first answer'), textTurn('second answer')], { latency: 10 });
      const input$ = hot('15ms m', { m: 'one more thing' });
      runAgent({ model, prompt: 'go', steering$: input$ }).subscribe((e) => events.push(e));
    });
    expect(userTexts(events)).toEqual(['go', 'one more thing']);
    expect(events.at(-1)).toMatchObject({ reason: 'completed', steps: 2 });
  });

  it('takes messages from a MessageQueue that outlives the run', async () => {
    const queue = new MessageQueue();
    queue.push('from the queue');
    const model = scriptedModel([textTurn('ok')]);
    await collectEvents(runAgent({ model, prompt: 'hi', steering$: queue }));
    expect(model.requests[0]?.messages.at(-1)).toMatchObject({ content: 'from the queue' });
    expect(queue.size).toBe(0);
  });
});

describe('follow-ups', () => {
  it('are delivered only when the run would stop, and start another turn', () => {
    const events: AgentEvent[] = [];
    createTestScheduler().run(({ hot }) => {
      const model = scriptedModel([
        toolCallTurn({ name: 'sleep', args: { ms: 100 } }),
        textTurn('answer'),
        textTurn('summary'),
      ]);
      const followUp$ = hot('50ms f', { f: 'Now summarize.' });
      runAgent({ model, tools: [sleep('sleep')], prompt: 'go', followUp$ }).subscribe((e) => events.push(e));
    });
    // Arrived while the tool ran (no skip), delivered after the answer, then one more turn.
    expect(results(events).map((r) => contentText(r))).toEqual(['slept 100']);
    const order = events.flatMap((e) => (e.type === 'message-end' ? [`${e.message.role}`] : []));
    expect(order).toEqual(['user', 'assistant', 'tool', 'assistant', 'user', 'assistant']);
    expect(userTexts(events)).toEqual(['go', 'Now summarize.']);
    expect(events.at(-1)).toMatchObject({ reason: 'completed', steps: 3 });
  });

  it('work as an operator in a custom pipeline', async () => {
    const model = scriptedModel([textTurn('a'), textTurn('b')]);
    const events = await collectEvents(
      runAgent({
        model,
        prompt: 'go',
        pipeline: (t$) => t$.pipe(llmStep(), executeTools(), followUp(of('and then?'))),
      }),
    );
    expect(userTexts(events)).toEqual(['go', 'and then?']);
  });
});
