import { catchError, map, throwError, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { aTurn, assistantMessage } from '@rxagent/testing';
import type { AgentEvent } from '../events/agent-event.js';
import type { Turn } from '../turn/turn.js';
import { isTurn, type LoopItem } from '../turn/loop-item.js';
import { or } from '../stop/combinators.js';
import type { StopCondition } from '../stop/stop-condition.js';
import { hasToolCall, stepCountIs, timeBudget } from '../stop/stop-conditions.js';
import { stopSignal } from '../events/stop-signal.js';
import { stopWhen } from './stop-when.js';

// Marble tests of stopWhen alone: a fixture turn after its model call and tools, in the RxJS
// spec shape. The emitted turn is summarized by its stop signal.

const answered = assistantMessage([{ type: 'text', text: 'Done.' }]);
const calledFinish = assistantMessage(
  [{ type: 'tool-call', id: 'c1', name: 'finish', args: {} }],
  'tool-calls',
);

const boom: StopCondition = function boom() {
  throw new Error('kaput');
};

const turnSummary = (turn: Turn) => ({ step: turn.step, stop: turn.stop && { ...turn.stop } });
const summarized = (source: Observable<LoopItem>) =>
  source.pipe(
    map((item) => (isTurn(item) ? turnSummary(item) : item)),
    catchError((error: unknown) =>
      throwError(() => ({ name: (error as Error).name, message: (error as Error).message })),
    ),
  );

describe('stopWhen (marbles)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('sets the stop signal of the first predicate that is met', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('-t|', { t: aTurn({ assistant: calledFinish, toolResults: [] }) });
      const e1subs = '^-!';
      const expected = '-t|';

      expectObservable(summarized(e1.pipe(stopWhen(stepCountIs(5), hasToolCall('finish'))))).toBe(expected, {
        t: {
          step: 1,
          stop: {
            reason: 'predicate',
            message: 'The model called "finish".',
            context: { toolName: 'finish' },
            source: 'hasToolCall',
          },
        },
      });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('leaves the stop unset when no predicate is met', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('-t|', { t: aTurn({ step: 2, assistant: answered }) });
      const e1subs = '^-!';
      const expected = '-t|';

      expectObservable(summarized(e1.pipe(stopWhen(stepCountIs(3), hasToolCall('finish'))))).toBe(expected, {
        t: { step: 2, stop: undefined },
      });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('counts the steps before the turn (stepCountIs at step 3)', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const e1 = cold('-t|', { t: aTurn({ step: 3, assistant: answered }) });

      expectObservable(summarized(e1.pipe(stopWhen(stepCountIs(3))))).toBe('-t|', {
        t: { step: 3, stop: expect.objectContaining({ reason: 'steps-limit', source: 'stepCountIs' }) },
      });
    });
  });

  it('passes a turn that already stops on unchanged, without asking the predicates', () => {
    let asked = 0;
    testScheduler.run(({ cold, expectObservable }) => {
      const stopped = aTurn({
        assistant: answered,
        stop: stopSignal('stop-requested', 'A tool stopped it.'),
      });
      const e1 = cold('-t|', { t: stopped });
      const counting: StopCondition = () => {
        asked++;
        return true;
      };

      expectObservable(
        e1.pipe(
          stopWhen(counting),
          map((item) => item === stopped),
        ),
      ).toBe('-t|', { t: true });
    });
    expect(asked).toBe(0);
  });

  it('reports a throwing predicate as a warning and does not stop', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('-t 9ms |', { t: aTurn({ assistant: answered }) });
      const e1subs = '^ 10ms !';
      const expected = '-(wt) 6ms |';
      const warning: AgentEvent = {
        type: 'warning',
        message: 'Stop predicate "boom" threw and was ignored: kaput',
      };

      expectObservable(summarized(e1.pipe(stopWhen(boom)))).toBe(expected, {
        w: warning,
        t: { step: 1, stop: undefined },
      });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('a throwing predicate does not disable its siblings (nor the members of or())', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const e1 = cold('-t 9ms |', { t: aTurn({ assistant: calledFinish, toolResults: [] }) });

      expectObservable(summarized(e1.pipe(stopWhen(or(boom, hasToolCall('finish')))))).toBe('-(wt) 6ms |', {
        w: expect.objectContaining({ type: 'warning', message: expect.stringContaining('kaput') }),
        t: { step: 1, stop: expect.objectContaining({ reason: 'predicate', source: 'hasToolCall' }) },
      });
      expectObservable(summarized(e1.pipe(stopWhen(boom, hasToolCall('finish'))))).toBe('-(wt) 6ms |', {
        w: expect.objectContaining({ type: 'warning' }),
        t: { step: 1, stop: expect.objectContaining({ reason: 'predicate', source: 'hasToolCall' }) },
      });
    });
  });

  it('measures elapsed time on the run scheduler (timeBudget in virtual time)', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const turn = aTurn({ assistant: answered }); // the run starts at frame 0
      const early = cold('4ms t|', { t: turn });
      const late = cold('5ms t|', { t: turn });

      expectObservable(summarized(early.pipe(stopWhen(timeBudget(5))))).toBe('4ms t|', {
        t: { step: 1, stop: undefined },
      });
      expectObservable(summarized(late.pipe(stopWhen(timeBudget(5))))).toBe('5ms t|', {
        t: {
          step: 1,
          stop: expect.objectContaining({ reason: 'time-limit', context: { elapsedMs: 5, maxMs: 5 } }),
        },
      });
    });
  });

  it('passes events through unchanged', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const warning: AgentEvent = { type: 'warning', message: 'upstream' };
      const e1 = cold('w-t|', { w: warning, t: aTurn({ assistant: answered }) });

      expectObservable(
        e1.pipe(
          stopWhen(stepCountIs(1)),
          map((item) => (item === warning ? 'same' : item.type)),
        ),
      ).toBe('w-t|', { w: 'same', t: 'turn' });
    });
  });

  it('fails with PipelineError on a turn without the model message', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('-t|', { t: aTurn() });
      const e1subs = '^!';

      expectObservable(summarized(e1.pipe(stopWhen(stepCountIs(1))))).toBe('-#', undefined, {
        name: 'PipelineError',
        message: expect.stringContaining("stopWhen() received a turn without the model's message"),
      });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });
});
