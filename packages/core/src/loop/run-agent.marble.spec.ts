import { z } from 'zod';
import { map, Observable, tap, timer } from 'rxjs';
import {
  assistantMessage,
  createTestScheduler,
  finishEvent,
  marbleModel,
  textDelta,
  timeline,
  toMarbleLetters,
} from '@rxagent/testing';
import { RetriesExhaustedError } from '../errors/agent-errors.js';
import { AuthError, RateLimitError } from '../errors/provider-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { ToolCallPart } from '../messages/types.js';
import type { ModelEvent } from '../model/model-event.js';
import { tool } from '../tools/tool.js';
import { runAgent } from './run-agent.js';

const callPart = (id: string, ms: number): ToolCallPart => ({
  type: 'tool-call',
  id,
  name: 'wait',
  args: { ms },
});
const toolTurn = (...calls: ToolCallPart[]): ModelEvent => finishEvent(assistantMessage(calls, 'tool-calls'));
const values: Record<string, ModelEvent> = {
  a: textDelta('H'),
  b: textDelta('i'),
  f: finishEvent(assistantMessage([{ type: 'text', text: 'Hi' }])),
  g: toolTurn(callPart('c1', 50)),
  h: toolTurn(callPart('c1', 300), callPart('c2', 100), callPart('c3', 200)),
  x: toolTurn(callPart('c1', 40_000)),
};

function waitTool(seen: { aborted: string[] } = { aborted: [] }) {
  return tool({
    name: 'wait',
    description: 'Waits ms milliseconds on the scheduler',
    parameters: z.object({ ms: z.number() }),
    execute: ({ ms }, { scheduler, signal, toolCallId }) => {
      signal.addEventListener('abort', () => seen.aborted.push(toolCallId));
      return timer(ms, scheduler).pipe(map(() => `waited ${ms}`));
    },
  });
}

describe('runAgent in virtual time', () => {
  it('streams a text-only run in the documented order', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const model = marbleModel(cold, ['10ms a 9ms b 9ms (f|)'], values);
      const run$ = runAgent({ model, prompt: 'hi' });
      const expected = timeline([0, 'ATSE'], [10, 'SU'], [20, 'U'], [30, 'ENZ|']);
      expectObservable(run$.pipe(toMarbleLetters())).toBe(expected);
    });
  });

  it('emits tool-end in completion order and results in call order', () => {
    const events: AgentEvent[] = [];
    createTestScheduler().run(({ cold, expectObservable }) => {
      const model = marbleModel(cold, ['100ms (h|)', '100ms (f|)'], values);
      const run$ = runAgent({ model, tools: [waitTool()], prompt: 'go' }).pipe(tap((e) => events.push(e)));
      // Tools start at 100 and end at 200 (c2), 300 (c3), 400 (c1); then the results and turn 2.
      const expected = timeline(
        [0, 'ATSE'],
        [100, 'SEsss'],
        [200, 'e'],
        [300, 'e'],
        [400, 'eSESESENT'],
        [500, 'SENZ|'],
      );
      expectObservable(run$.pipe(toMarbleLetters())).toBe(expected);
    });
    const ends = events
      .filter((e) => e.type === 'tool-end')
      .map((e) => e.type === 'tool-end' && e.toolCallId);
    expect(ends).toEqual(['c2', 'c3', 'c1']);
    const results = events.flatMap((e) =>
      e.type === 'message-end' && e.message.role === 'tool' ? [e.message.toolCallId] : [],
    );
    expect(results).toEqual(['c1', 'c2', 'c3']);
  });

  it('tears the model stream down when unsubscribed mid-stream, and emits nothing after', () => {
    let model!: ReturnType<typeof marbleModel>;
    createTestScheduler().run(({ cold, expectObservable }) => {
      model = marbleModel(cold, ['10ms a 9ms b 9ms (f|)'], values);
      const run$ = runAgent({ model, prompt: 'hi' });
      const unsub = '15ms !';
      expectObservable(run$.pipe(toMarbleLetters()), unsub).toBe(timeline([0, 'ATSE'], [10, 'SU']));
    });
    expect(model.streams[0]?.subscriptions).toEqual([{ subscribedFrame: 0, unsubscribedFrame: 15 }]);
  });

  it('aborts the running tool when unsubscribed mid-tool, and emits nothing after', () => {
    const seen = { aborted: [] as string[] };
    createTestScheduler().run(({ cold, expectObservable }) => {
      const model = marbleModel(cold, ['10ms (g|)', '(f|)'], values);
      const run$ = runAgent({ model, tools: [waitTool(seen)], prompt: 'go' });
      expectObservable(run$.pipe(toMarbleLetters()), '12ms !').toBe(timeline([0, 'ATSE'], [10, 'SEs']));
    });
    expect(seen.aborted).toEqual(['c1']);
  });

  it('unsubscribes an Observable-returning tool when the run is unsubscribed', () => {
    let tornDown = false;
    const streaming = tool({
      name: 'wait',
      description: 'Streams forever',
      parameters: z.object({ ms: z.number() }),
      execute: () =>
        new Observable<string>(() => () => {
          tornDown = true;
        }),
    });
    createTestScheduler().run(({ cold, expectObservable }) => {
      const model = marbleModel(cold, ['10ms (g|)'], values);
      const run$ = runAgent({ model, tools: [streaming], prompt: 'go' });
      expectObservable(run$.pipe(toMarbleLetters()), '20ms !').toBe(timeline([0, 'ATSE'], [10, 'SEs']));
    });
    expect(tornDown).toBe(true);
  });

  it('retries a rate limit after its retry-after, in virtual time', () => {
    let model!: ReturnType<typeof marbleModel>;
    createTestScheduler().run(({ cold, expectObservable }) => {
      const limited = new RateLimitError('Too many requests', { retryAfterMs: 2000 });
      model = marbleModel(cold, [{ marble: '50ms #', error: limited }, '100ms (f|)'], values);
      const run$ = runAgent({ model, prompt: 'hi' });
      expectObservable(run$.pipe(toMarbleLetters())).toBe(timeline([0, 'ATSE'], [50, 'R'], [2150, 'SENZ|']));
    });
    expect(model.streams.map((s) => s.subscriptions).flat()).toEqual([
      { subscribedFrame: 0, unsubscribedFrame: 50 },
      { subscribedFrame: 2050, unsubscribedFrame: 2150 },
    ]);
  });

  it('backs off 1 s, 2 s, 4 s, then errors with RetriesExhaustedError', () => {
    const limited = new RateLimitError('Too many requests');
    createTestScheduler().run(({ cold, expectObservable }) => {
      const failing = { marble: '#', error: limited };
      const model = marbleModel(cold, [failing, failing, failing, failing], values);
      const run$ = runAgent({ model, prompt: 'hi', retryBackoff: { jitter: 0 } });
      const expected = timeline([0, 'ATSER'], [1000, 'R'], [3000, 'R'], [7000, '#']);
      expectObservable(run$.pipe(toMarbleLetters())).toBe(
        expected,
        undefined,
        new RetriesExhaustedError(4, [limited, limited, limited, limited]),
      );
    });
  });

  it('does not retry a non-retryable error: the run errors with it', () => {
    const auth = new AuthError('Invalid API key');
    createTestScheduler().run(({ cold, expectObservable }) => {
      const model = marbleModel(cold, [{ marble: '50ms #', error: auth }], values);
      expectObservable(runAgent({ model, prompt: 'hi' }).pipe(toMarbleLetters())).toBe(
        timeline([0, 'ATSE'], [50, '#']),
        undefined,
        auth,
      );
    });
  });

  it('times a tool call out on the scheduler and goes on', () => {
    const events: AgentEvent[] = [];
    createTestScheduler().run(({ cold, expectObservable }) => {
      const model = marbleModel(cold, ['(x|)', '(f|)'], values);
      const run$ = runAgent({ model, tools: [waitTool()], prompt: 'go', toolTimeoutMs: 30_000 }).pipe(
        tap((e) => events.push(e)),
      );
      expectObservable(run$.pipe(toMarbleLetters())).toBe(timeline([0, 'ATSESEs'], [30_000, 'eSENTSENZ|']));
    });
    const end = events.find((e) => e.type === 'tool-end');
    expect(end).toMatchObject({
      isError: true,
      result: { content: [{ text: 'Tool "wait" timed out after 30000 ms.' }] },
    });
  });

  it('stops at maxSteps after running the last step tools, with no further model call', () => {
    let model!: ReturnType<typeof marbleModel>;
    const events: AgentEvent[] = [];
    createTestScheduler().run(({ cold, expectObservable }) => {
      model = marbleModel(cold, ['(g|)', '(g|)', '(f|)'], values);
      const run$ = runAgent({ model, tools: [waitTool()], prompt: 'go', maxSteps: 2 }).pipe(
        tap((e) => events.push(e)),
      );
      expectObservable(run$.pipe(toMarbleLetters())).toBe(
        timeline([0, 'ATSESEs'], [50, 'eSENTSEs'], [100, 'eSENZ|']),
      );
    });
    expect(model.requests).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'steps-limit', steps: 2 });
  });
});
