import { map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { aTurn } from '@rxagent/testing';
import type { AgentEvent } from '../events/agent-event.js';
import type { Turn } from '../turn/turn.js';
import { isTurn } from '../turn/loop-item.js';
import type { StopGuard } from '../stop/stop-condition.js';
import { guardStop } from './guard-stop.js';

// Marble tests of guardStop alone: it only adds its guard to the turn (the loop consults the
// guards when the model would stop), so the emitted turn is summarized by its guards.

const mustFinish: StopGuard = ({ step }) =>
  step.toolCalls.some((c) => c.name === 'finish') ? undefined : { inject: 'Call finish with your answer.' };
const noEscape: StopGuard = () => ({ escalate: true, reason: 'not allowed to stop' });

describe('guardStop (marbles)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('emits the turn carrying the guard, and does not consult it', () => {
    const seen: Turn[] = [];
    let consulted = 0;
    const counting: StopGuard = () => {
      consulted++;
      return undefined;
    };
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('-t|', { t: aTurn() });
      const e1subs = '^-!';
      const expected = '-t|';

      expectObservable(
        e1.pipe(
          guardStop(counting),
          map((item) => (isTurn(item) ? (seen.push(item), item.guards.length) : item)),
        ),
      ).toBe(expected, { t: 1 });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
    expect(seen[0]?.guards).toEqual([counting]);
    expect(consulted).toBe(0);
  });

  it('keeps guards in pipeline order and adds the same guard once', () => {
    const seen: Turn[] = [];
    testScheduler.run(({ cold, expectObservable }) => {
      const e1 = cold('-t|', { t: aTurn() });

      expectObservable(
        e1.pipe(
          guardStop(mustFinish),
          guardStop(noEscape),
          guardStop(mustFinish),
          map((item) => (isTurn(item) ? (seen.push(item), 'turn') : item)),
        ),
      ).toBe('-t|', { t: 'turn' });
    });
    expect(seen[0]?.guards).toEqual([mustFinish, noEscape]);
  });

  it('passes events through unchanged', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const warning: AgentEvent = { type: 'warning', message: 'upstream' };
      const e1 = cold('w-t|', { w: warning, t: aTurn() });

      expectObservable(
        e1.pipe(
          guardStop(mustFinish),
          map((item) => (item === warning ? 'same' : item.type)),
        ),
      ).toBe('w-t|', { w: 'same', t: 'turn' });
    });
  });

  it('does nothing when unsubscribed before the turn arrives', () => {
    const seen: Turn[] = [];
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('---t|', { t: aTurn() });
      const unsub = '^-!';

      expectObservable(
        e1.pipe(
          guardStop(mustFinish),
          map((item) => (isTurn(item) ? (seen.push(item), 'turn') : item)),
        ),
        unsub,
      ).toBe('--');
      expectSubscriptions(e1.subscriptions).toBe('^-!');
    });
    expect(seen).toEqual([]);
  });
});
