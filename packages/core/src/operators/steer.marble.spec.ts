import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { aTurn, assistantMessage, testRunFacts, timeline } from '@rxagent/testing';
import type { AgentEvent } from '../events/agent-event.js';
import { MessageQueue } from '../turn/message-queue.js';
import type { Turn } from '../turn/turn.js';
import { isTurn, type LoopItem } from '../turn/loop-item.js';
import { followUp, steer } from './steer.js';

// Marble tests of steer and followUp alone: each subscribes its source when the run's first pass
// subscribes it (so nothing sent before the turn reaches it is lost), hands it to the run when the
// turn arrives (once per run), and emits the turn carrying the queue (steer, before the model call, also delivers what is
// already queued). The turn is summarized by its queues (mode and size at
// the moment it is emitted); the queues themselves are kept to check what reached them.

const summary = (turn: Turn) => ({
  steering: turn.steering.map((s) => `${s.mode}:${s.queue.size}`),
  followUps: turn.followUps.map((q) => q.size),
  roles: turn.messages.map((m) => m.role),
});

describe('steer (marbles)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('subscribes the source when the run starts the pass, and emits the turn listening to its queue', () => {
    const seen: Turn[] = [];
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const input$ = cold('--a--b', { a: 'one', b: 'two' });
      const e1 = cold('-t|', { t: aTurn() });
      const e1subs = '^-!';
      const expected = '-t|';

      expectObservable(
        e1.pipe(
          steer(input$),
          map((item) => (isTurn(item) ? (seen.push(item), summary(item)) : item)),
        ),
      ).toBe(expected, { t: { steering: ['interrupt:0'], followUps: [], roles: ['user'] } });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
      // The source lives as long as the run, not as the pass: still subscribed after it completed.
      expectSubscriptions(input$.subscriptions).toBe('^');
    });
    expect(seen[0]?.steering[0]?.queue.drain()).toEqual(['one', 'two']);
  });

  it("uses the mode it is given ('after-turn')", () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const e1 = cold('-t|', { t: aTurn() });

      expectObservable(
        e1.pipe(
          steer(cold<string>('-'), { mode: 'after-turn' }),
          map((item) => (isTurn(item) ? summary(item) : item)),
        ),
      ).toBe('-t|', { t: { steering: ['after-turn:0'], followUps: [], roles: ['user'] } });
    });
  });

  it('subscribes a source once per run, however many turns pass', () => {
    const seen: Turn[] = [];
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const run = testRunFacts();
      const input$ = cold<string>('-');
      const e1 = cold('-t|', { t: aTurn({ run }) });
      const e2 = cold('---u|', { u: aTurn({ run, step: 2 }) });
      const keep = map((item: LoopItem) => (isTurn(item) ? (seen.push(item), 'turn') : item));

      // Two pipelines of one run (each subscribes its source at once): the run keeps the first
      // and drops the second when its turn brings it.
      expectObservable(e1.pipe(steer(input$), keep)).toBe('-t|', { t: 'turn' });
      expectObservable(e2.pipe(steer(input$), keep)).toBe('---u|', { u: 'turn' });
      expectSubscriptions(input$.subscriptions).toBe(['^', '^--!']);
    });
    expect(seen).toHaveLength(2);
    expect(seen[1]?.steering[0]?.queue).toBe(seen[0]?.steering[0]?.queue);
  });

  it('keeps the messages that arrive before the turn reaches it', () => {
    const seen: Turn[] = [];
    testScheduler.run(({ cold, expectObservable }) => {
      const input$ = cold('-a', { a: 'early' });
      const e1 = cold('---t|', {
        t: aTurn({ assistant: assistantMessage([{ type: 'text', text: 'Done.' }]) }),
      });
      expectObservable(
        e1.pipe(
          steer(input$),
          map((item) => (isTurn(item) ? (seen.push(item), 'turn') : item)),
        ),
      ).toBe('---t|', { t: 'turn' });
    });
    expect(seen[0]?.steering[0]?.queue.drain()).toEqual(['early']);
  });

  it('uses a MessageQueue as it is (no subscription) and listens to it once', () => {
    const queue = new MessageQueue();
    const seen: Turn[] = [];
    testScheduler.run(({ cold, expectObservable }) => {
      const e1 = cold('-t|', { t: aTurn() });

      expectObservable(
        e1.pipe(
          steer(queue),
          steer(queue),
          map((item) => (isTurn(item) ? (seen.push(item), summary(item)) : item)),
        ),
      ).toBe('-t|', { t: { steering: ['interrupt:0'], followUps: [], roles: ['user'] } });
    });
    expect(seen[0]?.steering[0]?.queue).toBe(queue);
  });

  it('before the model call, delivers what is queued into this turn', () => {
    const queue = new MessageQueue();
    queue.push('Only the src folder.');
    testScheduler.run(({ cold, expectObservable }) => {
      const e1 = cold('-t 9ms |', { t: aTurn() });
      const expected = timeline([1, 'SEt'], [11, '|']);
      const message = { role: 'user', content: 'Only the src folder.', timestamp: 1 };

      expectObservable(
        e1.pipe(
          steer(queue),
          map((item) => (isTurn(item) ? summary(item) : item)),
        ),
      ).toBe(expected, {
        S: { type: 'message-start', message },
        E: { type: 'message-end', message },
        t: { steering: ['interrupt:0'], followUps: [], roles: ['user', 'user'] },
      });
    });
    expect(queue.size).toBe(0);
  });

  it('after the model call, leaves what is queued for the next turn', () => {
    const queue = new MessageQueue();
    queue.push('Only the src folder.');
    testScheduler.run(({ cold, expectObservable }) => {
      const e1 = cold('-t|', {
        t: aTurn({ assistant: assistantMessage([{ type: 'text', text: 'Looking.' }]) }),
      });

      expectObservable(
        e1.pipe(
          steer(queue),
          map((item) => (isTurn(item) ? summary(item) : item)),
        ),
      ).toBe('-t|', {
        t: { steering: ['interrupt:1'], followUps: [], roles: ['user', 'assistant'] },
      });
    });
    expect(queue.drain()).toEqual(['Only the src folder.']);
  });

  it('unsubscribes the source when the run ends before the turn arrives', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const input$ = cold<string>('-a', { a: 'late' });
      const e1 = cold('---t|', { t: aTurn() });
      const e1subs = '^-!';
      const unsub = '^-!';

      expectObservable(e1.pipe(steer(input$)), unsub).toBe('--');
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
      expectSubscriptions(input$.subscriptions).toBe('^-!');
    });
  });

  it('passes events through unchanged', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const warning: AgentEvent = { type: 'warning', message: 'upstream' };
      const e1 = cold('w-t|', { w: warning, t: aTurn() });

      expectObservable(
        e1.pipe(
          steer(cold<string>('-')),
          map((item) => (item === warning ? 'same' : item.type)),
        ),
      ).toBe('w-t|', { w: 'same', t: 'turn' });
    });
  });
});

describe('followUp (marbles)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('subscribes the source when the run starts the pass, and emits the turn with its queue', () => {
    const seen: Turn[] = [];
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const input$ = cold('(a|)', { a: 'Now summarize.' });
      const e1 = cold('-t|', { t: aTurn() });
      const e1subs = '^-!';
      const expected = '-t|';

      expectObservable(
        e1.pipe(
          followUp(input$),
          map((item) => (isTurn(item) ? (seen.push(item), summary(item)) : item)),
        ),
      ).toBe(expected, { t: { steering: [], followUps: [1], roles: ['user'] } }); // emitted before the turn came
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
      expectSubscriptions(input$.subscriptions).toBe('(^!)');
    });
    expect(seen[0]?.followUps[0]?.drain()).toEqual(['Now summarize.']);
  });

  it('subscribes a source once per run and keeps one queue for it', () => {
    const seen: Turn[] = [];
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const run = testRunFacts();
      const input$ = cold<string>('-');
      const keep = map((item: LoopItem) => (isTurn(item) ? (seen.push(item), 'turn') : item));

      expectObservable(
        cold('-t|', { t: aTurn({ run }) }).pipe(followUp(input$), followUp(input$), keep),
      ).toBe('-t|', {
        t: 'turn',
      });
      expectObservable(cold('---u|', { u: aTurn({ run, step: 2 }) }).pipe(followUp(input$), keep)).toBe(
        '---u|',
        {
          u: 'turn',
        },
      );
      // Each application subscribes at once (the outer one first); the run keeps the one whose
      // turn came first and drops the others.
      expectSubscriptions(input$.subscriptions).toBe(['^!', '^', '^--!']);
    });
    expect(seen.map((t) => t.followUps.length)).toEqual([1, 1]);
    expect(seen[1]?.followUps[0]).toBe(seen[0]?.followUps[0]);
  });
});
