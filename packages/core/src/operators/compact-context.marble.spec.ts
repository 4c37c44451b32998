import { catchError, defer, map, throwError, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { aTurn, timeline } from '@rxagent/testing';
import type { ContextManager, ContextProjection } from '../context/context-manager.js';
import type { AgentEvent } from '../events/agent-event.js';
import { ContextOverflowError } from '../errors/provider-errors.js';
import type { Turn } from '../turn/turn.js';
import { isTurn, type LoopItem } from '../turn/loop-item.js';
import { contentText, userMessage } from '../messages/message-helpers.js';
import type { Message } from '../messages/types.js';
import { compactContext } from './compact-context.js';

// Marble tests of compactContext alone: a context manager (synchronous, or an Observable on
// the scheduler) projects the fixture turn's transcript; the emitted turn is summarized by
// its context.

const transcript: Message[] = [userMessage('one'), userMessage('two'), userMessage('three')];
const text = (m: Message) => (m.role === 'user' || m.role === 'tool' ? contentText(m) : m.role);
const lastOnly = (messages: readonly Message[]): ContextProjection => ({
  messages: messages.slice(-1),
  compaction: { strategy: 'keep-last', tokensBefore: 30, tokensAfter: 10, summarized: messages.length - 1 },
});
const compaction: AgentEvent = {
  type: 'compaction',
  strategy: 'keep-last',
  tokensBefore: 30,
  tokensAfter: 10,
  summarized: 2,
};

const turnSummary = (turn: Turn) => ({
  context: turn.context?.map(text),
  transcript: turn.messages.map((m) => text(m as Message)),
  recovers: turn.recoverOverflow !== undefined,
});
const summarized = (source: Observable<LoopItem>) =>
  source.pipe(
    map((item) => (isTurn(item) ? turnSummary(item) : item)),
    catchError((error: unknown) =>
      throwError(() => ({ name: (error as Error).name, message: (error as Error).message })),
    ),
  );

describe('compactContext (marbles)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('emits the compaction event, then the turn with the projected context (the transcript unchanged)', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const manager: ContextManager = { project: lastOnly };
      const e1 = cold('-t 9ms |', { t: aTurn({ messages: transcript }) });
      const e1subs = '^ 10ms !';
      const expected = timeline([1, 'ct'], [11, '|']);

      expectObservable(summarized(e1.pipe(compactContext(manager)))).toBe(expected, {
        c: compaction,
        t: { context: ['three'], transcript: ['one', 'two', 'three'], recovers: false },
      });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('waits for an asynchronous projection (its last value) and tears it down when unsubscribed', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const projection = cold('2ms a 2ms (b|)', {
        a: { messages: transcript },
        b: lastOnly(transcript),
      });
      const manager: ContextManager = { project: () => projection };
      const e1 = cold('-t|', { t: aTurn({ messages: transcript }) });

      expectObservable(summarized(e1.pipe(compactContext(manager)))).toBe(timeline([6, 'ct|']), {
        c: compaction,
        t: { context: ['three'], transcript: ['one', 'two', 'three'], recovers: false },
      });
      expectObservable(summarized(e1.pipe(compactContext(manager))), '^ 3ms !').toBe('');
      expectSubscriptions(projection.subscriptions).toBe(['-^----!', '-^--!']);
    });
  });

  it('passes the turn on unchanged when the manager keeps the messages as they are', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const turn = aTurn({ messages: transcript });
      const manager: ContextManager = { project: (messages) => ({ messages }) };
      const e1 = cold('-t|', { t: turn });

      expectObservable(
        e1.pipe(
          compactContext(manager),
          map((item) => item === turn),
        ),
      ).toBe('-t|', { t: true });
    });
  });

  it('reports a failing manager as a warning and sends the context uncompacted', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const manager: ContextManager = {
        project: () => {
          throw new Error('tokenizer missing');
        },
      };
      const e1 = cold('-t 9ms |', { t: aTurn({ messages: transcript }) });

      expectObservable(summarized(e1.pipe(compactContext(manager)))).toBe(timeline([1, 'wt'], [11, '|']), {
        w: {
          type: 'warning',
          message: 'Context manager failed, sending the context uncompacted: tokenizer missing',
        },
        t: { context: undefined, transcript: ['one', 'two', 'three'], recovers: false },
      });
    });
  });

  it('gives the turn an overflow recovery that asks the manager once more', () => {
    const seen: Turn[] = [];
    const manager: ContextManager = {
      project: (messages) => ({ messages }),
      recoverOverflow: (messages) => lastOnly(messages),
    };
    testScheduler.run(({ cold, expectObservable }) => {
      const e1 = cold('-t|', { t: aTurn({ messages: transcript }) });
      // What llmStep does on a ContextOverflowError, subscribed once the turn went by.
      const recovered$ = defer(() => seen[0]!.recoverOverflow!(new ContextOverflowError('too long')));

      expectObservable(
        e1.pipe(
          compactContext(manager),
          map((item) => (isTurn(item) ? (seen.push(item), turnSummary(item)) : item)),
        ),
      ).toBe('-t|', {
        t: { context: ['one', 'two', 'three'], transcript: ['one', 'two', 'three'], recovers: true },
      });
      expectObservable(
        recovered$.pipe(map((u) => ({ messages: u.messages.map(text), events: u.events }))),
        '---^',
      ).toBe('---(u|)', { u: { messages: ['three'], events: [compaction] } });
    });
  });

  it("projects an earlier projection (a second compactContext sees the first one's context)", () => {
    const seenInput: string[][] = [];
    testScheduler.run(({ cold, expectObservable }) => {
      const recording: ContextManager = {
        project: (messages) => {
          seenInput.push(messages.map(text));
          return { messages };
        },
      };
      const e1 = cold('-t 9ms |', { t: aTurn({ messages: transcript }) });

      expectObservable(
        summarized(e1.pipe(compactContext({ project: lastOnly }), compactContext(recording))),
      ).toBe(timeline([1, 'ct'], [11, '|']), {
        c: compaction,
        t: { context: ['three'], transcript: ['one', 'two', 'three'], recovers: false },
      });
    });
    expect(seenInput).toEqual([['three']]);
  });
});
