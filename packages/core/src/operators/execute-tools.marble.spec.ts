import { z } from 'zod';
import { catchError, map, take, throwError, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { aTurn, assistantMessage, timeline } from '@rxagent/testing';
import { AgentStop } from '../errors/agent-stop.js';
import type { AgentEvent } from '../events/agent-event.js';
import { MessageQueue } from '../turn/message-queue.js';
import type { Turn } from '../turn/turn.js';
import { isTurn, type LoopItem } from '../turn/loop-item.js';
import { contentText } from '../messages/message-helpers.js';
import type { ToolCallPart } from '../messages/types.js';
import { tool, type AnyTool } from '../tools/tool.js';
import { executeTools, SKIPPED_FOR_STEERING_TEXT } from './execute-tools.js';

// Marble tests of executeTools alone: a fixture turn that already has the model's message (as
// llmStep would leave it), tools whose work is a cold marble, in the RxJS spec shape.

const call = (id: string, name: string, args: unknown = { city: 'Paris' }): ToolCallPart => ({
  type: 'tool-call',
  id,
  name,
  args,
});
const asking = (...calls: ToolCallPart[]) => assistantMessage(calls, 'tool-calls');

/** A tool whose every call plays `work$` (a cold marble: its subscriptions show teardowns). */
function marbleTool(name: string, work$: Observable<string>, extra: Partial<AnyTool> = {}): AnyTool {
  return {
    ...(tool({
      name,
      description: name,
      parameters: z.object({ city: z.string() }),
      execute: () => work$,
    }) as AnyTool),
    ...extra,
  };
}

function eventSummary(event: AgentEvent): string {
  switch (event.type) {
    case 'tool-start':
      return `tool-start:${event.toolCallId}`;
    case 'tool-update':
      return `tool-update:${event.toolCallId}`;
    case 'tool-end':
      return `tool-end:${event.toolCallId}:${event.isError ? 'error' : 'ok'}`;
    case 'message-start':
    case 'message-end':
      return `${event.type}:${event.message.role}:${event.message.role === 'tool' ? event.message.toolCallId : ''}`;
    default:
      return event.type;
  }
}

function turnSummary(turn: Turn) {
  return {
    step: turn.step,
    results: turn.toolResults?.map((r) => `${r.toolCallId}:${r.isError ? 'error' : 'ok'}:${contentText(r)}`),
    roles: turn.messages.map((m) => m.role),
    stop: turn.stop?.reason,
  };
}

const summarized = (source: Observable<LoopItem>) =>
  source.pipe(
    map((item) => (isTurn(item) ? turnSummary(item) : eventSummary(item))),
    catchError((error: unknown) =>
      throwError(() => ({ name: (error as Error).name, message: (error as Error).message })),
    ),
  );

describe('executeTools (marbles)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('emits tool-start/tool-end as calls run, then the results in call order and the turn with them', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const slow = cold('9ms (r|)', { r: 'slow done' });
      const fast = cold('4ms (r|)', { r: 'fast done' });
      const turn = aTurn({
        tools: [marbleTool('slow', slow), marbleTool('fast', fast)],
        assistant: asking(call('c1', 'slow'), call('c2', 'fast')),
      });
      const e1 = cold('-t|', { t: turn });
      const e1subs = '^-!';
      // both start at once; the fast one ends first; the results enter in call order.
      const expected = timeline([1, 'ab'], [5, 'B'], [10, 'AMNOPt|']);

      expectObservable(summarized(e1.pipe(executeTools()))).toBe(expected, {
        a: 'tool-start:c1',
        b: 'tool-start:c2',
        B: 'tool-end:c2:ok',
        A: 'tool-end:c1:ok',
        M: 'message-start:tool:c1',
        N: 'message-end:tool:c1',
        O: 'message-start:tool:c2',
        P: 'message-end:tool:c2',
        t: {
          step: 1,
          results: ['c1:ok:slow done', 'c2:ok:fast done'],
          roles: ['user', 'assistant', 'tool', 'tool'],
          stop: undefined,
        },
      });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
      expectSubscriptions(slow.subscriptions).toBe('-^--------!');
      expectSubscriptions(fast.subscriptions).toBe('-^---!');
    });
  });

  it('runs one call at a time with concurrency 1', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const slow = cold('9ms (r|)', { r: 'slow done' });
      const fast = cold('4ms (r|)', { r: 'fast done' });
      const turn = aTurn({
        tools: [marbleTool('slow', slow), marbleTool('fast', fast)],
        assistant: asking(call('c1', 'slow'), call('c2', 'fast')),
      });
      const e1 = cold('-t|', { t: turn });
      const expected = timeline([1, 'a'], [10, 'Ab'], [14, 'BMNOPt|']);

      expectObservable(summarized(e1.pipe(executeTools({ concurrency: 1 })))).toBe(expected, {
        a: 'tool-start:c1',
        A: 'tool-end:c1:ok',
        b: 'tool-start:c2',
        B: 'tool-end:c2:ok',
        M: 'message-start:tool:c1',
        N: 'message-end:tool:c1',
        O: 'message-start:tool:c2',
        P: 'message-end:tool:c2',
        t: expect.objectContaining({ results: ['c1:ok:slow done', 'c2:ok:fast done'] }),
      });
      expectSubscriptions(slow.subscriptions).toBe('-^--------!');
      expectSubscriptions(fast.subscriptions).toBe('----------^---!');
    });
  });

  it('passes events through unchanged', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const warning: AgentEvent = { type: 'warning', message: 'upstream' };
      const turn = aTurn({ assistant: assistantMessage([{ type: 'text', text: 'no calls' }]) });
      const e1 = cold('w-t-w|', { w: warning, t: turn });
      const e1subs = '^----!';
      const expected = 'w-t-w|';

      expectObservable(
        e1.pipe(
          executeTools(),
          map((item) => (item === warning ? 'same' : isTurn(item) ? turnSummary(item) : item)),
        ),
      ).toBe(expected, {
        w: 'same',
        t: { step: 1, results: [], roles: ['user', 'assistant'], stop: undefined },
      });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('turns an unknown tool into an error result, not a failed run', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const turn = aTurn({ assistant: asking(call('c1', 'nope')) });
      const e1 = cold('-t 9ms |', { t: turn });
      const expected = timeline([1, 'aAMNt'], [11, '|']);

      expectObservable(summarized(e1.pipe(executeTools()))).toBe(expected, {
        a: 'tool-start:c1',
        A: 'tool-end:c1:error',
        M: 'message-start:tool:c1',
        N: 'message-end:tool:c1',
        t: expect.objectContaining({ results: ['c1:error:Unknown tool "nope". Available tools: none.'] }),
      });
    });
  });

  it('times a call out on the scheduler and tears it down', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const stuck = cold('20ms (r|)', { r: 'too late' });
      const turn = aTurn({ tools: [marbleTool('stuck', stuck)], assistant: asking(call('c1', 'stuck')) });
      const e1 = cold('-t|', { t: turn });
      const expected = timeline([1, 'a'], [6, 'AMNt|']);

      expectObservable(summarized(e1.pipe(executeTools({ timeoutMs: 5 })))).toBe(expected, {
        a: 'tool-start:c1',
        A: 'tool-end:c1:error',
        M: 'message-start:tool:c1',
        N: 'message-end:tool:c1',
        t: expect.objectContaining({ results: ['c1:error:Tool "stuck" timed out after 5 ms.'] }),
      });
      expectSubscriptions(stuck.subscriptions).toBe('-^----!');
    });
  });

  it('reports an Observable tool value that is not its last as tool-update', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const steps = cold('2ms p 2ms (r|)', { p: 'halfway', r: 'done' });
      const turn = aTurn({ tools: [marbleTool('steps', steps)], assistant: asking(call('c1', 'steps')) });
      const e1 = cold('-t|', { t: turn });
      const expected = timeline([1, 'a'], [3, 'p'], [6, 'AMNt|']);

      expectObservable(summarized(e1.pipe(executeTools()))).toBe(expected, {
        a: 'tool-start:c1',
        p: 'tool-update:c1',
        A: 'tool-end:c1:ok',
        M: 'message-start:tool:c1',
        N: 'message-end:tool:c1',
        t: expect.objectContaining({ results: ['c1:ok:done'] }),
      });
    });
  });

  it('tears running calls down and aborts their signal when unsubscribed mid-batch', () => {
    const aborted: string[] = [];
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const work = cold('9ms (r|)', { r: 'done' });
      const watched = tool({
        name: 'watched',
        description: 'watched',
        parameters: z.object({ city: z.string() }),
        execute: (_args, { signal, toolCallId }) => {
          signal.addEventListener('abort', () => aborted.push(toolCallId));
          return work;
        },
      });
      const turn = aTurn({ tools: [watched], assistant: asking(call('c1', 'watched')) });
      const e1 = cold('-t|', { t: turn });
      const e1subs = '^-!';
      const unsub = '^ 4ms !';
      const expected = '-a';

      expectObservable(summarized(e1.pipe(executeTools())), unsub).toBe(expected, { a: 'tool-start:c1' });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
      expectSubscriptions(work.subscriptions).toBe('-^---!');
    });
    expect(aborted).toEqual(['c1']);
  });

  it("skips the calls not started when the turn's steering queue gets a message (interrupt)", () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const first = cold('9ms (r|)', { r: 'first done' });
      const second = cold('9ms (r|)', { r: 'second done' });
      const queue = new MessageQueue();
      const turn = aTurn({
        tools: [marbleTool('first', first), marbleTool('second', second)],
        assistant: asking(call('c1', 'first'), call('c2', 'second')),
      }).withSteering(queue, 'interrupt');
      cold('4ms m').subscribe(() => queue.push('Stop and listen.'));
      const e1 = cold('-t|', { t: turn });
      const expected = timeline([1, 'a'], [10, 'AbBMNOPt|']);

      expectObservable(summarized(e1.pipe(executeTools({ concurrency: 1 })))).toBe(expected, {
        a: 'tool-start:c1',
        A: 'tool-end:c1:ok',
        b: 'tool-start:c2',
        B: 'tool-end:c2:error',
        M: 'message-start:tool:c1',
        N: 'message-end:tool:c1',
        O: 'message-start:tool:c2',
        P: 'message-end:tool:c2',
        t: expect.objectContaining({
          results: ['c1:ok:first done', `c2:error:${SKIPPED_FOR_STEERING_TEXT}`],
        }),
      });
      expectSubscriptions(second.subscriptions).toBe([]);
    });
  });

  it('ends the run after the turn when a tool throws AgentStop', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const stopper = tool({
        name: 'finish',
        description: 'finish',
        parameters: z.object({}),
        execute: () => {
          throw new AgentStop('All done.');
        },
      });
      const turn = aTurn({ tools: [stopper], assistant: asking(call('c1', 'finish', {})) });
      const e1 = cold('-t 9ms |', { t: turn });
      const expected = timeline([1, 'aAMNt'], [11, '|']);

      expectObservable(summarized(e1.pipe(executeTools()))).toBe(expected, {
        a: 'tool-start:c1',
        A: 'tool-end:c1:ok',
        M: 'message-start:tool:c1',
        N: 'message-end:tool:c1',
        t: {
          step: 1,
          results: ['c1:ok:All done.'],
          roles: ['user', 'assistant', 'tool'],
          stop: 'stop-requested',
        },
      });
    });
  });

  it('starts no tool once unsubscribed synchronously from inside next (take(1))', () => {
    const started: string[] = [];
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const counted = tool({
        name: 'counted',
        description: 'counted',
        parameters: z.object({ city: z.string() }),
        execute: (_args, { toolCallId }) => {
          started.push(toolCallId);
          return 'ok';
        },
      });
      const turn = aTurn({
        tools: [counted],
        assistant: asking(call('c1', 'counted'), call('c2', 'counted')),
      });
      const e1 = cold('-t|', { t: turn });
      const e1subs = '^!';
      const expected = '-(a|)';

      expectObservable(summarized(e1.pipe(executeTools(), take(1)))).toBe(expected, { a: 'tool-start:c1' });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
    expect(started).toEqual([]);
  });

  it('fails with PipelineError on a turn without the model message', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('-t|', { t: aTurn() });
      const e1subs = '^!';
      const expected = '-#';

      expectObservable(summarized(e1.pipe(executeTools()))).toBe(expected, undefined, {
        name: 'PipelineError',
        message: expect.stringContaining("executeTools() received a turn without the model's message"),
      });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('fails with PipelineError on a turn whose tools already ran', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const e1 = cold('-t|', { t: aTurn({ assistant: asking(), toolResults: [] }) });

      expectObservable(summarized(e1.pipe(executeTools()))).toBe('-#', undefined, {
        name: 'PipelineError',
        message: expect.stringContaining('executeTools() received a turn whose tools already ran'),
      });
    });
  });
});
