import { TestScheduler } from 'rxjs/testing';
import { aTurn, assistantMessage } from '@rxagent/testing';
import { hello, summarized } from '../guardrails/guardrail-test-kit.test.js';
import type { OutputGuardrail, OutputGuardrailVerdict } from '../guardrails/guardrail.js';
import { testRunFacts } from '@rxagent/testing';
import { outputGuard } from './output-guard.js';
import { tap } from 'rxjs';
import type { StepResult } from '../events/agent-event.js';
import { isTurn } from '../turn/loop-item.js';
import type { Turn } from '../turn/turn.js';

// outputGuard alone: a fixture turn with the model's final answer, checks on marble frames.

const answered = { assistant: 'Hello', roles: ['user', 'assistant'], next: [] };
const letters = {
  G: 'guard:polite',
  p: 'verdict:polite:passed',
  g: 'verdict:polite:tripped:too short',
  r: 'verdict:polite:retry:too short',
  a: { ...answered, stop: undefined },
  t: { ...answered, stop: 'guardrail:polite' },
  n: {
    ...answered,
    stop: undefined,
    next: ['Your answer was rejected by the "polite" guardrail: too short\nPlease answer again.'],
  },
};

const verdictGuard = (verdict: OutputGuardrailVerdict, maxRetries?: number): OutputGuardrail => ({
  name: 'polite',
  maxRetries,
  check: ({ text }) => (text === 'Hello' ? verdict : undefined),
});

describe('outputGuard (marbles)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('passes a final answer its guardrails accept', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('-t|', { t: aTurn({ assistant: hello }) });
      const e1subs = '^-!';
      const check$ = cold('--(v|)', { v: { tripped: false } });
      const guard: OutputGuardrail = { name: 'polite', check: () => check$ };
      expectObservable(summarized(e1.pipe(outputGuard([guard])))).toBe('-G-(pa|)', letters);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
      expectSubscriptions(check$.subscriptions).toBe('-^-!');
    });
  });

  it('stops the run with reason guardrail when a guardrail trips', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const e1 = cold('-(t|)', { t: aTurn({ assistant: hello }) });
      const guard = verdictGuard({ tripped: true, reason: 'too short' });
      expectObservable(summarized(e1.pipe(outputGuard([guard])))).toBe('-(Ggt|)', letters);
    });
  });

  it('sends the model the reason and lets it try again when the verdict asks for a retry, then trips', () => {
    const run = testRunFacts();
    const guard = outputGuard([verdictGuard({ tripped: true, retry: true, reason: 'too short' }, 1)]);
    let retried: Turn | undefined;
    testScheduler.run(({ cold, expectObservable }) => {
      // The first final answer gets a retry; the turn carries the retries spent to the next one.
      const e1 = cold('-(t|)', { t: aTurn({ run, assistant: hello }) });
      const out$ = e1.pipe(
        guard,
        tap((item) => isTurn(item) && (retried = item)),
      );
      expectObservable(summarized(out$)).toBe('-(Grn|)', letters);
    });
    const first = retried as Turn;
    const second = first.nextTurn(first.stepResult() as StepResult, first.next).withAssistant(hello);
    new TestScheduler((actual, expected) => expect(actual).toEqual(expected)).run(
      ({ cold, expectObservable }) => {
        // The second final answer of the same run, with its retries spent, trips.
        const e2 = cold('-(t|)', { t: second });
        const tripped = { ...letters.t, roles: ['user', 'assistant', 'user', 'assistant'] };
        expectObservable(summarized(e2.pipe(guard))).toBe('-(Ggt|)', { ...letters, t: tripped });
      },
    );
  });

  it('leaves turns with tool calls alone', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const withCall = assistantMessage([{ type: 'tool-call', id: 'c1', name: 'x', args: {} }], 'tool-calls');
      let checks = 0;
      const guard: OutputGuardrail = { name: 'polite', check: () => (checks++, { tripped: true }) };
      const turn = aTurn({ assistant: withCall, toolResults: [] });
      const e1 = cold('-t|', { t: turn });
      expectObservable(e1.pipe(outputGuard([guard]))).toBe('-t|', { t: turn });
      expect(checks).toBe(0);
    });
  });

  it('gives structured output parsed when the run asked for JSON', () => {
    const seen: unknown[] = [];
    testScheduler.run(({ cold, expectObservable }) => {
      const json = assistantMessage([{ type: 'text', text: '{"total":3}' }]);
      const guard: OutputGuardrail = { name: 'polite', check: ({ json: value }) => void seen.push(value) };
      const turn = aTurn({ assistant: json, config: { responseFormat: { type: 'json' } } });
      expectObservable(summarized(cold('-(t|)', { t: turn }).pipe(outputGuard([guard])))).toBe('-(Gpt|)', {
        ...letters,
        t: { assistant: '{"total":3}', roles: ['user', 'assistant'], next: [], stop: undefined },
      });
    });
    expect(seen).toEqual([{ total: 3 }]);
  });
});
