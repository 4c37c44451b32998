import { z } from 'zod';
import { catchError, map, take, throwError, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { aTurn, assistantMessage, finishEvent, marbleModel, timeline } from '@rxagent/testing';
import { NetworkError } from '../errors/provider-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { ModelEvent } from '../model/model-event.js';
import { contentText } from '../messages/message-helpers.js';
import type { ToolCallPart } from '../messages/types.js';
import { tool, type AnyTool } from '../tools/tool.js';
import type { ToolMiddleware } from '../tools/tool-hooks.js';
import { isTurn, type LoopItem } from '../turn/loop-item.js';
import type { Turn } from '../turn/turn.js';
import { executeTools } from './execute-tools.js';
import { llmStep } from './llm-step.js';

// Marble tests of eager tools: `llmStep()` then `executeTools()` on a fixture turn, in the RxJS
// spec shape (`e1`, `e1subs`, `expected`). A call to an eager tool starts at its `toolcall-end`,
// while the model still streams; its result enters the transcript after the message.

const call = (id: string, name = 'lookup', q = id): ToolCallPart => ({
  type: 'tool-call',
  id,
  name,
  args: { q },
});
const end = (c: ToolCallPart, index = 0): ModelEvent => ({ type: 'toolcall-end', index, call: c });
const finish = (...calls: ToolCallPart[]): ModelEvent => finishEvent(assistantMessage(calls, 'tool-calls'));

/** A tool whose every call plays `work$` (a cold marble: its subscriptions show when it ran). */
function marbleTool(
  name: string,
  work$: (q: string) => Observable<string>,
  extra: { eager?: boolean } = {},
): AnyTool {
  const made = tool({
    name,
    description: name,
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => work$(q),
    ...extra,
  });
  return made;
}

function eventSummary(event: AgentEvent): string {
  switch (event.type) {
    case 'tool-start':
    case 'tool-end':
      return `${event.type}:${event.toolCallId}`;
    case 'message-start':
    case 'message-end':
      return `${event.type}:${event.message.role === 'tool' ? event.message.toolCallId : event.message.role}`;
    default:
      return event.type;
  }
}

const turnSummary = (turn: Turn) => ({
  results: turn.toolResults?.map((r) => `${r.toolCallId}:${contentText(r)}`),
  roles: turn.messages.map((m) => m.role),
});

const summarized = (source: Observable<LoopItem>) =>
  source.pipe(
    map((item) => (isTurn(item) ? turnSummary(item) : eventSummary(item))),
    catchError((error: unknown) =>
      throwError(() => ({ name: (error as Error).name, message: (error as Error).message })),
    ),
  );

describe('eager tools (marbles)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('starts each call at its toolcall-end, before message-end; results after the message, in call order', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const [a, b] = [call('a'), call('b')];
      const works = { a: cold('30ms (r|)', { r: 'A' }), b: cold('5ms (r|)', { r: 'B' }) };
      const lookup = marbleTool('lookup', (q) => works[q as 'a' | 'b'], { eager: true });
      const model = marbleModel(cold, ['10ms x 9ms y 19ms (f|)'], {
        x: end(a),
        y: end(b, 1),
        f: finish(a, b),
      });
      const e1 = cold('t|', { t: aTurn({ model, tools: [lookup] }) });
      const e1subs = '^!';
      const expected = timeline([10, 'Ss'], [20, 's'], [40, 'Eeevvvvt|']);

      expectObservable(summarized(e1.pipe(llmStep(), executeTools()))).toBe(expected, {
        S: 'message-start:assistant',
        s: expect.stringMatching(/^tool-start:[ab]$/),
        E: 'message-end:assistant',
        e: expect.stringMatching(/^tool-end:[ab]$/),
        v: expect.stringMatching(/^message-(start|end):[ab]$/),
        t: { results: ['a:A', 'b:B'], roles: ['user', 'assistant', 'tool', 'tool'] },
      });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
      // Each ran once, from its toolcall-end.
      expectSubscriptions(works.a.subscriptions).toBe('10ms ^ 29ms !');
      expectSubscriptions(works.b.subscriptions).toBe('20ms ^ 4ms !');
    });
  });

  it('keeps the event order: tool-start among the deltas; tool-ends of calls done early right after message-end, in call order', () => {
    const events: string[] = [];
    testScheduler.run(({ cold, flush }) => {
      const [a, b] = [call('a'), call('b')];
      // b ends first: its tool-end still waits for the message.
      const works = { a: cold('8ms (r|)', { r: 'A' }), b: cold('1ms (r|)', { r: 'B' }) };
      const lookup = marbleTool('lookup', (q) => works[q as 'a' | 'b'], { eager: true });
      const model = marbleModel(cold, ['x y 9ms (f|)'], { x: end(a), y: end(b, 1), f: finish(a, b) });
      cold('t|', { t: aTurn({ model, tools: [lookup] }) })
        .pipe(llmStep(), executeTools(), summarized)
        .subscribe((s) => events.push(typeof s === 'string' ? s : 'turn'));
      flush();
    });
    expect(events).toEqual([
      'message-start:assistant',
      'tool-start:a',
      'tool-start:b',
      'message-end:assistant',
      'tool-end:a',
      'tool-end:b',
      'message-start:a',
      'message-end:a',
      'message-start:b',
      'message-end:b',
      'turn',
    ]);
  });

  it('a failed attempt aborts its eager calls before the retry: their results are dropped, the call runs again', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = call('a');
      const work = cold('50ms (r|)', { r: 'A' });
      const lookup = marbleTool('lookup', () => work, { eager: true });
      const model = marbleModel(cold, [
        { marble: '10ms x 9ms #', values: { x: end(a) }, error: new NetworkError('socket hang up') },
        { marble: '5ms x 4ms (f|)', values: { x: end(a), f: finish(a) } },
      ]);
      const e1 = cold('t|', {
        t: aTurn({ model, tools: [lookup], config: { retryBackoff: { initialDelayMs: 100, jitter: 0 } } }),
      });
      const expected = timeline([10, 'Ss'], [20, 'R'], [125, 'Ss'], [130, 'E'], [175, 'evvt|']);

      expectObservable(summarized(e1.pipe(llmStep(), executeTools()))).toBe(expected, {
        S: 'message-start:assistant',
        s: 'tool-start:a',
        R: 'retry',
        E: 'message-end:assistant',
        e: 'tool-end:a',
        v: expect.stringMatching(/^message-(start|end):a$/),
        t: { results: ['a:A'], roles: ['user', 'assistant', 'tool'] },
      });
      // The first execution was aborted at the failure (before the retry event), the second ran.
      expectSubscriptions(work.subscriptions).toBe(['10ms ^ 9ms !', '125ms ^ 49ms !']);
    });
  });

  it('unsubscribing while the model streams aborts the running eager call', () => {
    let signal: AbortSignal | undefined;
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = call('a');
      const work = cold('100ms (r|)', { r: 'A' });
      const lookup = tool({
        name: 'lookup',
        description: 'lookup',
        parameters: z.object({ q: z.string() }),
        eager: true,
        execute: (_args, ctx) => {
          signal = ctx.signal;
          return work;
        },
      }) as AnyTool;
      const model = marbleModel(cold, ['10ms x 89ms (f|)'], { x: end(a), f: finish(a) });
      const e1 = cold('t|', { t: aTurn({ model, tools: [lookup] }) });
      const unsub = '30ms !';
      const expected = timeline([10, 'Ss']);

      expectObservable(summarized(e1.pipe(llmStep(), executeTools())), unsub).toBe(expected, {
        S: 'message-start:assistant',
        s: 'tool-start:a',
      });
      expectSubscriptions(work.subscriptions).toBe('10ms ^ 19ms !');
    });
    expect(signal?.aborted).toBe(true);
  });

  it('unsubscribing from inside the tool-start (take) starts no tool', () => {
    const started: string[] = [];
    testScheduler.run(({ cold, expectObservable }) => {
      const a = call('a');
      const lookup = marbleTool(
        'lookup',
        (q) => {
          started.push(q);
          return cold('5ms (r|)', { r: q });
        },
        { eager: true },
      );
      const model = marbleModel(cold, ['10ms x 9ms (f|)'], { x: end(a), f: finish(a) });
      const e1 = cold('t|', { t: aTurn({ model, tools: [lookup] }) });
      const expected = timeline([10, 'Ss|']);
      // (the take(2) subscriber leaves from inside the tool-start's `next`)

      expectObservable(summarized(e1.pipe(llmStep(), executeTools())).pipe(take(2))).toBe(expected, {
        S: 'message-start:assistant',
        s: 'tool-start:a',
      });
    });
    expect(started).toEqual([]);
  });

  it('a call after a non-eager call waits for the message (calls never overtake one that must wait)', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const [a, b] = [call('a', 'slow'), call('b')];
      const lookup = marbleTool('lookup', () => cold('5ms (r|)', { r: 'B' }), { eager: true });
      const slow = marbleTool('slow', () => cold('5ms (r|)', { r: 'A' }));
      const model = marbleModel(cold, ['x y 9ms (f|)'], { x: end(a), y: end(b, 1), f: finish(a, b) });
      const e1 = cold('t|', { t: aTurn({ model, tools: [lookup, slow] }) });
      const expected = timeline([0, 'S'], [11, 'Ess'], [16, 'eevvvvt|']);

      expectObservable(summarized(e1.pipe(llmStep(), executeTools()))).toBe(expected, {
        S: 'message-start:assistant',
        s: expect.stringMatching(/^tool-start:[ab]$/),
        E: 'message-end:assistant',
        e: expect.stringMatching(/^tool-end:[ab]$/),
        v: expect.stringMatching(/^message-(start|end):[ab]$/),
        t: { results: ['a:A', 'b:B'], roles: ['user', 'assistant', 'tool', 'tool'] },
      });
    });
  });

  it('runs a call again when the finished message changed its arguments (the early one is aborted)', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const streamed = call('a', 'lookup', 'old');
      const final = call('a', 'lookup', 'new');
      const works = { old: cold('50ms (r|)', { r: 'OLD' }), new: cold('5ms (r|)', { r: 'NEW' }) };
      const lookup = marbleTool('lookup', (q) => works[q as 'old' | 'new'], { eager: true });
      const model = marbleModel(cold, ['x 9ms (f|)'], { x: end(streamed), f: finish(final) });
      const e1 = cold('t|', { t: aTurn({ model, tools: [lookup] }) });
      const expected = timeline([0, 'Ss'], [10, 'Es'], [15, 'evvt|']);

      expectObservable(summarized(e1.pipe(llmStep(), executeTools()))).toBe(expected, {
        S: 'message-start:assistant',
        s: 'tool-start:a',
        E: 'message-end:assistant',
        e: 'tool-end:a',
        v: expect.stringMatching(/^message-(start|end):a$/),
        t: { results: ['a:NEW'], roles: ['user', 'assistant', 'tool'] },
      });
      expectSubscriptions(works.old.subscriptions).toBe('^ 9ms !');
      expectSubscriptions(works.new.subscriptions).toBe('10ms ^ 4ms !');
    });
  });

  it('refuses an executeTools() whose middlewares would run the adopted calls otherwise (PipelineError)', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const a = call('a');
      const lookup = marbleTool('lookup', () => cold('5ms (r|)', { r: 'A' }), { eager: true });
      const model = marbleModel(cold, ['x 9ms (f|)'], { x: end(a), f: finish(a) });
      const e1 = cold('t|', { t: aTurn({ model, tools: [lookup] }) });
      const expected = timeline([0, 'Ss'], [10, 'E#']);
      const audit: ToolMiddleware = (c, _ctx, next) => next(c);

      expectObservable(summarized(e1.pipe(llmStep(), executeTools({ middlewares: [audit] })))).toBe(
        expected,
        { S: 'message-start:assistant', s: 'tool-start:a', E: 'message-end:assistant' },
        {
          name: 'PipelineError',
          message: expect.stringMatching(/eager tools "lookup".*runAgent\(\{ middlewares \}\)/),
        },
      );
    });
  });
});
