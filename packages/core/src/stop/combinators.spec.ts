import { z } from 'zod';
import { collectEvents, scriptedModel, textTurn, toolCallTurn, usage } from '@rxagent/testing';
import type { AgentEndEvent, StepResult } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import { tool } from '../tools/tool.js';
import { and, not, or } from './combinators.js';
import { evaluateStopCondition, judgeStopCondition } from './evaluate-stop-condition.js';
import type { StopCondition, StopContext } from './stop-condition.js';
import { hasToolCall, stepCountIs, timeBudget, tokenBudget } from './stop-conditions.js';
import { stopSignal } from '../events/stop-signal.js';

const step = (n: number, tools: string[] = []): StepResult => ({
  step: n,
  message: {
    role: 'assistant',
    content: [],
    stopReason: 'stop',
    usage: usage(),
    provider: 't',
    model: 't',
    timestamp: 0,
  },
  toolCalls: tools.map((name, i) => ({ type: 'tool-call', id: `${i}`, name, args: {} })),
  toolResults: [],
  usage: usage(),
  finishReason: 'stop',
});

/** A context at step `n`, whose `warn` collects into `warnings`. */
function fixture(
  n: number,
  opts: { tools?: string[]; totalTokens?: number; elapsedMs?: number } = {},
): { context: StopContext; warnings: string[] } {
  const warnings: string[] = [];
  const context: StopContext = {
    steps: [step(n, opts.tools)],
    step: step(n, opts.tools),
    usage: usage({ totalTokens: opts.totalTokens ?? 0 }),
    elapsedMs: opts.elapsedMs ?? 0,
    messages: [],
    warn: (message) => warnings.push(message),
  };
  return { context, warnings };
}

const broken: StopCondition = function broken() {
  throw new Error('oops');
};
const brokenWarning = 'Stop predicate "broken" threw and was ignored: oops';

describe('evaluateStopCondition', () => {
  it('turns true into a generic predicate signal named after the condition', () => {
    const { context } = fixture(1);
    const done: StopCondition = function done() {
      return true;
    };
    expect(evaluateStopCondition(done, context)).toEqual({
      reason: 'predicate',
      message: 'A stop condition was met.',
      source: 'done',
    });
  });

  it('returns a StopSignal as is', () => {
    const { context } = fixture(1);
    const signal = stopSignal('time-limit', 'late', { context: { ms: 5 } });
    expect(evaluateStopCondition(() => signal, context)).toBe(signal);
  });

  it('anything else does not stop', () => {
    const { context } = fixture(1);
    for (const verdict of [false, null, undefined, 0, 'yes', {}, { reason: 1 }]) {
      expect(evaluateStopCondition(() => verdict as never, context)).toBeUndefined();
    }
  });

  it('a throw is a warning with the predicate name and does not stop', () => {
    const { context, warnings } = fixture(1);
    expect(evaluateStopCondition(broken, context)).toBeUndefined();
    expect(warnings).toEqual([brokenWarning]);
  });

  it('names an anonymous predicate and stringifies a non-Error throw', () => {
    const { context, warnings } = fixture(1);
    const plain: unknown = 'plain';
    // Taken from an array, the arrow function gets no name.
    const anonymous = [
      () => {
        throw plain;
      },
    ][0] as StopCondition;
    expect(anonymous.name).toBe('');
    expect(evaluateStopCondition(anonymous, context)).toBeUndefined();
    expect(warnings).toEqual(['Stop predicate "anonymous" threw and was ignored: plain']);
  });

  it('a throw without warn in the context still does not stop', () => {
    const { context } = fixture(1);
    delete context.warn;
    expect(() => evaluateStopCondition(broken, context)).not.toThrow();
    expect(evaluateStopCondition(broken, context)).toBeUndefined();
  });

  it('judgeStopCondition tells a throw apart from not met', () => {
    const { context } = fixture(1);
    expect(judgeStopCondition(broken, context)).toEqual({ kind: 'threw' });
    expect(judgeStopCondition(() => false, context)).toEqual({ kind: 'not-met' });
    expect(judgeStopCondition(stepCountIs(1), context)).toMatchObject({
      kind: 'met',
      signal: { reason: 'steps-limit' },
    });
  });
});

describe('or', () => {
  it('a throwing member does not disable its siblings, and warns each time', () => {
    const c = or(broken, stepCountIs(2));
    const first = fixture(1);
    expect(c(first.context)).toBeUndefined();
    expect(first.warnings).toEqual([brokenWarning]);
    const second = fixture(2);
    expect(c(second.context)).toMatchObject({ reason: 'steps-limit', source: 'stepCountIs' });
    expect(second.warnings).toEqual([brokenWarning]);
  });

  it('reports the first member that stopped, whatever its reason', () => {
    const { context, warnings } = fixture(3, { tools: ['finish'] });
    expect(or(broken, hasToolCall('finish'), stepCountIs(2))(context)).toMatchObject({
      reason: 'predicate',
      source: 'hasToolCall',
    });
    expect(warnings).toEqual([brokenWarning]);
  });
});

describe('and', () => {
  it('a throwing member makes it not met, with a warning', () => {
    const { context, warnings } = fixture(5, { tools: ['finish'] });
    expect(and(broken, stepCountIs(2))(context)).toBeUndefined();
    expect(and(hasToolCall('finish'), broken)(context)).toBeUndefined();
    expect(warnings).toEqual([brokenWarning, brokenWarning]);
  });

  it('a specific reason wins over a generic predicate one, whatever the order', () => {
    const { context } = fixture(3, { tools: ['finish'], totalTokens: 2000, elapsedMs: 5000 });
    expect(and(stepCountIs(2), hasToolCall('finish'))(context)).toMatchObject({ reason: 'steps-limit' });
    expect(and(hasToolCall('finish'), stepCountIs(2))(context)).toMatchObject({ reason: 'steps-limit' });
    expect(and(tokenBudget(1000), () => true)(context)).toMatchObject({ reason: 'token-limit' });
    expect(and(() => true, timeBudget(1000))(context)).toMatchObject({ reason: 'time-limit' });
  });

  it('among equally specific signals, the first member wins', () => {
    const { context } = fixture(3, { tools: ['finish'], totalTokens: 2000 });
    expect(and(tokenBudget(1000), stepCountIs(2))(context)).toMatchObject({ reason: 'token-limit' });
    expect(and(stepCountIs(2), tokenBudget(1000))(context)).toMatchObject({ reason: 'steps-limit' });
    const first: StopCondition = function first() {
      return true;
    };
    expect(and(first, hasToolCall('finish'))(context)).toMatchObject({
      reason: 'predicate',
      source: 'first',
    });
  });
});

describe('not', () => {
  it('a throwing member does not stop, with a warning; a member not met still stops', () => {
    const { context, warnings } = fixture(1);
    expect(not(broken)(context)).toBeUndefined();
    expect(warnings).toEqual([brokenWarning]);
    expect(not(() => false)(context)).toMatchObject({ reason: 'predicate', source: 'not' });
    expect(warnings).toEqual([brokenWarning]);
  });
});

describe('nested combinators', () => {
  it('warnings of inner members reach the context; siblings still decide', () => {
    const { context, warnings } = fixture(2);
    expect(
      or(
        and(broken, () => true),
        not(broken),
        stepCountIs(2),
      )(context),
    ).toMatchObject({
      reason: 'steps-limit',
    });
    expect(warnings).toEqual([brokenWarning, brokenWarning]);
  });
});

describe('combinators through stopWhen', () => {
  it('or(throwing, stepCountIs(2)) stops the run at step 2', async () => {
    const noop = tool({ name: 'noop', description: 'noop', parameters: z.object({}), execute: () => 'ok' });
    const model = scriptedModel([
      ...Array.from({ length: 5 }, () => toolCallTurn({ name: 'noop' })),
      textTurn('done'),
    ]);
    const events = await collectEvents(
      runAgent({ model, tools: [noop], prompt: 'go', maxSteps: 50, stopWhen: or(broken, stepCountIs(2)) }),
    );
    expect(events.at(-1) as AgentEndEvent).toMatchObject({ reason: 'steps-limit', steps: 2 });
    expect(model.calls).toBe(2);
  });
});
