import { of } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { aTurn, timeline } from '@rxagent/testing';
import { GuardrailTrippedError } from '../guardrails/guardrail-tripped-error.js';
import { helloValues, streamModel, summarized } from '../guardrails/guardrail-test-kit.test.js';
import type { GuardrailVerdict, InputGuardrail } from '../guardrails/guardrail.js';
import { inputGuard } from './input-guard.js';
import { llmStep } from './llm-step.js';

// inputGuard alone: a fixture turn, a marble model, and checks that answer on marble frames.

const trip: GuardrailVerdict = { tripped: true, reason: 'asks for malware' };
const pass: GuardrailVerdict = { tripped: false };

const letters = {
  G: 'guard:moderation',
  g: 'verdict:moderation:tripped:asks for malware',
  p: 'verdict:moderation:passed',
  S: 'start:assistant',
  U: 'update:Hel',
  V: 'update:lo',
  E: 'end:assistant:Hello',
  t: { assistant: undefined, roles: ['user'], stop: 'guardrail:moderation', next: [] },
  a: { assistant: 'Hello', roles: ['user', 'assistant'], stop: undefined, next: [] },
  u: { assistant: undefined, roles: ['user'], stop: undefined, next: [] },
};

describe('inputGuard (marbles)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('a parallel guardrail that trips cuts the model stream at the trip frame; nothing of the answer goes on', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const answer$ = cold('-a 9ms b 9ms (f|)', helloValues);
      const check$ = cold('6ms (v|)', { v: trip });
      const guard: InputGuardrail = { name: 'moderation', parallel: true, check: () => check$ };
      const e1 = cold('-t|', { t: aTurn({ model: streamModel(answer$), priorLength: 0 }) });
      const e1subs = '^-!';
      const expected = timeline([1, 'G'], [2, 'SU'], [7, 'gt|']);

      expectObservable(summarized(e1.pipe(inputGuard([guard], { call: llmStep() })))).toBe(expected, letters);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
      // The model's subscription ends at the trip frame (7), mid-answer.
      expectSubscriptions(answer$.subscriptions).toBe('-^ 5ms !');
      expectSubscriptions(check$.subscriptions).toBe('-^ 5ms !');
    });
  });

  it('a parallel guardrail that passes lets the answer stream live and go on', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const answer$ = cold('-a 9ms b 9ms (f|)', helloValues);
      const check$ = cold('6ms (v|)', { v: pass });
      const guard: InputGuardrail = { name: 'moderation', parallel: true, check: () => check$ };
      const e1 = cold('-t|', { t: aTurn({ model: streamModel(answer$), priorLength: 0 }) });
      const expected = timeline([1, 'G'], [2, 'SU'], [7, 'p'], [12, 'V'], [22, 'Ea|']);

      expectObservable(summarized(e1.pipe(inputGuard([guard], { call: llmStep() })))).toBe(expected, letters);
      expectSubscriptions(answer$.subscriptions).toBe('-^ 20ms !');
    });
  });

  it('unsubscribing mid-race tears down both the model stream and the check', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const answer$ = cold('-a 9ms b 9ms (f|)', helloValues);
      const check$ = cold('30ms (v|)', { v: pass });
      const guard: InputGuardrail = { name: 'moderation', parallel: true, check: () => check$ };
      const e1 = cold('-t|', { t: aTurn({ model: streamModel(answer$), priorLength: 0 }) });
      const unsub = '10ms !';

      expectObservable(summarized(e1.pipe(inputGuard([guard], { call: llmStep() }))), unsub).toBe(
        timeline([1, 'G'], [2, 'SU']),
        letters,
      );
      expectSubscriptions(answer$.subscriptions).toBe('-^ 8ms !');
      expectSubscriptions(check$.subscriptions).toBe('-^ 8ms !');
    });
  });

  it('holds a finished answer until the slower parallel check passes', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const answer$ = cold('-a 9ms b 9ms (f|)', helloValues);
      const guard: InputGuardrail = {
        name: 'moderation',
        parallel: true,
        check: () => cold('30ms (v|)', { v: pass }),
      };
      const e1 = cold('-t|', { t: aTurn({ model: streamModel(answer$), priorLength: 0 }) });
      const expected = timeline([1, 'G'], [2, 'SU'], [12, 'V'], [31, 'pEa|']);

      expectObservable(summarized(e1.pipe(inputGuard([guard], { call: llmStep() })))).toBe(expected, letters);
    });
  });

  it('drops a finished answer when the slower parallel check trips', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const answer$ = cold('-a 9ms b 9ms (f|)', helloValues);
      const guard: InputGuardrail = {
        name: 'moderation',
        parallel: true,
        check: () => cold('30ms (v|)', { v: trip }),
      };
      const e1 = cold('-t|', { t: aTurn({ model: streamModel(answer$), priorLength: 0 }) });
      const expected = timeline([1, 'G'], [2, 'SU'], [12, 'V'], [31, 'gt|']);

      expectObservable(summarized(e1.pipe(inputGuard([guard], { call: llmStep() })))).toBe(expected, letters);
    });
  });

  it('a blocking guardrail that trips stops the turn before any model call', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const model = streamModel(cold('-(f|)', helloValues));
      const guard: InputGuardrail = { name: 'moderation', check: () => trip };
      const e1 = cold('-(t|)', { t: aTurn({ model, priorLength: 0 }) });

      expectObservable(summarized(e1.pipe(inputGuard([guard]), llmStep()))).toBe('-(Ggt|)', letters);
      expect(model.calls).toBe(0);
    });
  });

  it('a blocking guardrail that passes (an Observable verdict) lets the call run after it', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const answer$ = cold('-(f|)', helloValues);
      const guard: InputGuardrail = { name: 'moderation', check: () => cold('--(v|)', { v: pass }) };
      const e1 = cold('-t|', { t: aTurn({ model: streamModel(answer$), priorLength: 0 }) });

      expectObservable(summarized(e1.pipe(inputGuard([guard], { call: llmStep() })))).toBe(
        timeline([1, 'G'], [3, 'p'], [4, 'SEa|']),
        letters,
      );
    });
  });

  it("fails the run with GuardrailTrippedError when asked (onTrip: 'error')", () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const guard: InputGuardrail = { name: 'moderation', check: () => of(trip) };
      const e1 = cold('-t|', { t: aTurn({ priorLength: 0 }) });
      const error = new GuardrailTrippedError('moderation', 'input', 'asks for malware');

      expectObservable(summarized(e1.pipe(inputGuard([guard], { onTrip: 'error' })))).toBe(
        '-(Gg#)',
        letters,
        {
          name: 'GuardrailTrippedError',
          message: error.message,
        },
      );
    });
  });

  it('a check that throws trips (fail closed)', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const guard: InputGuardrail = {
        name: 'moderation',
        check: () => {
          throw new Error('classifier down');
        },
      };
      const e1 = cold('-(t|)', { t: aTurn({ priorLength: 0 }) });
      expectObservable(summarized(e1.pipe(inputGuard([guard])))).toBe('-(Ggt|)', {
        ...letters,
        g: 'verdict:moderation:tripped:The guardrail failed, so it tripped: classifier down',
      });
    });
  });

  it('checks only the first turn', () => {
    let checks = 0;
    testScheduler.run(({ cold, expectObservable }) => {
      const guard: InputGuardrail = { name: 'moderation', check: () => (checks++, trip) };
      const e1 = cold('-t|', { t: aTurn({ step: 2, priorLength: 0 }) });
      expectObservable(summarized(e1.pipe(inputGuard([guard])))).toBe('-t|', {
        t: { assistant: undefined, roles: ['user'], stop: undefined, next: [] },
      });
    });
    expect(checks).toBe(0);
  });

  it('refuses a parallel guardrail without the call it races', () => {
    const guard: InputGuardrail = { name: 'moderation', parallel: true, check: () => trip };
    expect(() => inputGuard([guard])).toThrow(/needs the call it races/);
  });
});
