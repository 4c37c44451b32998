import { z } from 'zod';
import { map, timer } from 'rxjs';
import {
  collectEvents,
  createTestScheduler,
  scriptedModel,
  textTurn,
  toolCallTurn,
  usage,
} from '@rxagent/testing';
import { StopGuardEscalationError } from '../errors/agent-errors.js';
import type { AgentEndEvent, AgentEvent, StepResult } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import type { RunAgentConfig } from '../turn/run-config.js';
import { tool } from '../tools/tool.js';
import { and, not, or } from './combinators.js';
import type { StopCondition, StopContext } from './stop-condition.js';
import {
  costBudget,
  finishReasonIs,
  hasToolCall,
  stepCountIs,
  timeBudget,
  tokenBudget,
} from './stop-conditions.js';
import { stopSignal } from '../events/stop-signal.js';

const noop = tool({ name: 'noop', description: 'noop', parameters: z.object({}), execute: () => 'ok' });
const finish = tool({
  name: 'finish',
  description: 'finish',
  parameters: z.object({}),
  execute: () => 'done',
});
const loopTurns = (n: number, opts = {}) =>
  Array.from({ length: n }, () => toolCallTurn({ name: 'noop' }, opts));

async function end(
  config: Partial<RunAgentConfig> & Pick<RunAgentConfig, 'model'>,
): Promise<{ end: AgentEndEvent; events: AgentEvent[] }> {
  const events = await collectEvents(
    runAgent({ tools: [noop, finish], prompt: 'go', maxSteps: 50, ...config }),
  );
  return { end: events.at(-1) as AgentEndEvent, events };
}

describe('stop conditions through stopWhen', () => {
  it('stepCountIs stops after N steps with steps-limit', async () => {
    const model = scriptedModel(loopTurns(10));
    const { end: e } = await end({ model, stopWhen: stepCountIs(3) });
    expect(e).toMatchObject({
      reason: 'steps-limit',
      steps: 3,
      signal: { source: 'stepCountIs', message: 'Step limit reached: 3/3' },
    });
    expect(model.calls).toBe(3);
  });

  it('hasToolCall stops after the step that called the tool, its tools executed', async () => {
    const model = scriptedModel([
      toolCallTurn({ name: 'noop' }),
      toolCallTurn({ name: 'finish' }),
      textTurn('never'),
    ]);
    const { end: e, events } = await end({ model, stopWhen: hasToolCall('finish') });
    expect(e).toMatchObject({
      reason: 'predicate',
      steps: 2,
      signal: { message: 'The model called "finish".' },
    });
    expect(events.filter((x) => x.type === 'tool-end')).toHaveLength(2);
    expect(e.messages.at(-1)).toMatchObject({ role: 'tool', toolName: 'finish' });
  });

  it('tokenBudget stops once the total reaches the budget', async () => {
    const model = scriptedModel(loopTurns(10, { usage: { inputTokens: 300, outputTokens: 100 } }));
    const { end: e } = await end({ model, stopWhen: tokenBudget(1000) });
    expect(e).toMatchObject({ reason: 'token-limit', steps: 3, usage: { totalTokens: 1200 } });
    expect(e.signal.message).toBe('Token limit reached: 1200/1000');
  });

  it('tokenBudget can count output tokens only', async () => {
    const model = scriptedModel(loopTurns(10, { usage: { inputTokens: 300, outputTokens: 100 } }));
    const { end: e } = await end({ model, stopWhen: tokenBudget(500, 'output') });
    expect(e).toMatchObject({ reason: 'token-limit', steps: 5 });
  });

  it('costBudget uses the given prices', async () => {
    const model = scriptedModel(loopTurns(10, { usage: { inputTokens: 1_000_000, outputTokens: 0 } }));
    const { end: e } = await end({
      model,
      stopWhen: costBudget(5, { inputPerMillion: 2, outputPerMillion: 10 }),
    });
    expect(e).toMatchObject({ reason: 'token-limit', steps: 3 });
  });

  it('finishReasonIs stops on the named finish reason', async () => {
    const model = scriptedModel([
      toolCallTurn({ name: 'noop' }),
      toolCallTurn({ name: 'noop' }, { stopReason: 'length' }),
      textTurn('x'),
    ]);
    const { end: e } = await end({ model, stopWhen: finishReasonIs('length') });
    expect(e).toMatchObject({ reason: 'finish-reason', steps: 2 });
  });

  it('timeBudget stops between steps once the time is spent, on the scheduler', () => {
    let e: AgentEndEvent | undefined;
    createTestScheduler().run(() => {
      const slow = tool({
        name: 'noop',
        description: 'slow',
        parameters: z.object({}),
        execute: (_a, { scheduler }) => timer(400, scheduler).pipe(map(() => 'ok')),
      });
      const model = scriptedModel(loopTurns(10));
      runAgent({ model, tools: [slow], prompt: 'go', stopWhen: timeBudget(1000) }).subscribe((x) => {
        if (x.type === 'agent-end') e = x;
      });
    });
    expect(e).toMatchObject({
      reason: 'time-limit',
      steps: 3,
      signal: { message: 'Time limit reached: 1200/1000 ms' },
    });
  });

  it('a predicate may return a StopSignal of its own', async () => {
    const custom: StopCondition = ({ step }) =>
      step.step === 2 ? stopSignal('predicate', 'enough', { context: { why: 'test' } }) : undefined;
    const { end: e } = await end({ model: scriptedModel(loopTurns(5)), stopWhen: custom });
    expect(e.signal).toEqual({ reason: 'predicate', message: 'enough', context: { why: 'test' } });
  });

  it('predicates in an array OR together; the first true wins', async () => {
    const { end: e } = await end({
      model: scriptedModel(loopTurns(5)),
      stopWhen: [stepCountIs(4), stepCountIs(2)],
    });
    expect(e.steps).toBe(2);
  });

  it('a throwing predicate is a warning and does not stop', async () => {
    const broken: StopCondition = function broken() {
      throw new Error('oops');
    };
    const { end: e, events } = await end({
      model: scriptedModel([...loopTurns(2), textTurn('done')]),
      stopWhen: [broken],
    });
    expect(e.reason).toBe('completed');
    expect(events.filter((x) => x.type === 'warning').map((x) => x.type === 'warning' && x.message)).toEqual([
      'Stop predicate "broken" threw and was ignored: oops',
      'Stop predicate "broken" threw and was ignored: oops',
      'Stop predicate "broken" threw and was ignored: oops',
    ]);
  });

  it('a natural finish ends with completed', async () => {
    const { end: e } = await end({ model: scriptedModel([textTurn('hi')]), stopWhen: stepCountIs(1) });
    expect(e.reason).toBe('completed');
  });
});

describe('combinators', () => {
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
  const ctx = (n: number, tools: string[] = []): StopContext => ({
    steps: [step(n, tools)],
    step: step(n, tools),
    usage: usage(),
    elapsedMs: 0,
    messages: [],
  });

  it('or stops when any does, with the first signal', () => {
    const c = or(stepCountIs(5), hasToolCall('finish'));
    expect(c(ctx(1))).toBeUndefined();
    expect(c(ctx(1, ['finish']))).toMatchObject({ source: 'hasToolCall' });
    expect(c(ctx(5, ['finish']))).toMatchObject({ source: 'stepCountIs' });
  });

  it('and stops when all do, with the most specific signal', () => {
    const c = and(stepCountIs(2), hasToolCall('finish'));
    expect(c(ctx(3))).toBeUndefined();
    expect(c(ctx(1, ['finish']))).toBeUndefined();
    expect(c(ctx(3, ['finish']))).toMatchObject({ reason: 'steps-limit', source: 'stepCountIs' });
  });

  it('not inverts, and true counts like a signal', () => {
    const c = not(hasToolCall('search'));
    expect(c(ctx(1, ['search']))).toBeUndefined();
    expect(c(ctx(1, []))).toMatchObject({ reason: 'predicate', source: 'not' });
    expect(not(() => true)(ctx(1))).toBeUndefined();
    expect(
      or(
        () => false,
        () => true,
      )(ctx(1)),
    ).toMatchObject({ reason: 'predicate' });
  });
});

describe('guardStop', () => {
  it('injects a message and goes on when the model would stop', async () => {
    const model = scriptedModel([textTurn('I think so.'), toolCallTurn({ name: 'finish' }), textTurn('bye')]);
    let asked = 0;
    const { end: e, events } = await end({
      model,
      guardStop: ({ steps }) =>
        steps.some((s) => s.toolCalls.some((c) => c.name === 'finish')) || asked++
          ? undefined
          : { inject: 'Call finish.' },
    });
    expect(e.reason).toBe('completed');
    expect(model.calls).toBe(3);
    const users = events.flatMap((x) =>
      x.type === 'message-end' && x.message.role === 'user' ? [x.message.content] : [],
    );
    expect(users).toEqual(['go', 'Call finish.']);
  });

  it('escalates: the run fails with StopGuardEscalationError', async () => {
    const model = scriptedModel([textTurn('no')]);
    await expect(
      end({ model, guardStop: () => ({ escalate: true, reason: 'no answer' }) }),
    ).rejects.toBeInstanceOf(StopGuardEscalationError);
  });

  it('a throwing guard is a warning and allows the stop', async () => {
    const { end: e, events } = await end({
      model: scriptedModel([textTurn('hi')]),
      guardStop: () => {
        throw new Error('guard broke');
      },
    });
    expect(e.reason).toBe('completed');
    expect(events.some((x) => x.type === 'warning' && x.message.includes('guard broke'))).toBe(true);
  });
});
