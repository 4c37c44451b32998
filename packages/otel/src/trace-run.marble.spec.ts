import { z } from 'zod';
import { map, timer } from 'rxjs';
import { AuthError, RateLimitError, runAgent, tool, type ModelEvent, type ToolCallPart } from '@rxagent/core';
import { assistantMessage, createTestScheduler, finishEvent, marbleModel, textDelta } from '@rxagent/testing';
import { SpanStatusCode } from '@opentelemetry/api';
import { traceRun } from './trace-run.js';
import { memoryTracing, ms, spanNamed, spanTree } from './test-tracing.test.js';

const call = (id: string, waitMs: number): ToolCallPart => ({
  type: 'tool-call',
  id,
  name: 'wait',
  args: { ms: waitMs },
});
const usage = {
  inputTokens: 100,
  outputTokens: 20,
  cacheReadTokens: 60,
  cacheWriteTokens: 5,
  totalTokens: 120,
};
const values: Record<string, ModelEvent> = {
  a: textDelta('Hi'),
  g: finishEvent(
    assistantMessage([call('c1', 30), call('c2', 10)], 'tool-calls', {
      usage,
      provider: 'marble',
      model: 'marble-2',
    }),
  ),
  f: finishEvent(
    assistantMessage([{ type: 'text', text: 'Done' }], 'stop', {
      usage,
      provider: 'marble',
      model: 'marble-2',
    }),
  ),
};

const waitTool = (needsApproval = false) =>
  tool({
    name: 'wait',
    description: 'Waits on the scheduler',
    parameters: z.object({ ms: z.number() }),
    needsApproval,
    execute: ({ ms: wait }, { scheduler }) => timer(wait, scheduler).pipe(map(() => `waited ${wait}`)),
  });

describe('traceRun in virtual time', () => {
  it('traces a whole run: the run, each model call, each tool call under the call that asked for it', () => {
    const tracing = memoryTracing();
    createTestScheduler().run(({ cold, flush }) => {
      const model = marbleModel(cold, ['10ms a 9ms (g|)', '5ms a 4ms (f|)'], values);
      runAgent({
        model,
        prompt: 'wait twice',
        runId: 'run-1',
        tools: [waitTool()],
        instrument: traceRun({ tracerProvider: tracing.provider, agentName: 'waiter' }),
      }).subscribe();
      flush();
    });
    const spans = tracing.spans();
    expect(spanTree(spans)).toEqual([
      'invoke_agent waiter [0-60]',
      '  chat marble-model [0-20]',
      '    execute_tool wait [20-30]',
      '    execute_tool wait [20-50]',
      '  chat marble-model [50-60]',
    ]);
    const run = spanNamed(spans, 'invoke_agent waiter');
    expect(run.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'waiter',
      'gen_ai.provider.name': 'marble',
      'gen_ai.request.model': 'marble-model',
      'rxagent.run.id': 'run-1',
      'rxagent.stop.reason': 'completed',
      'rxagent.steps': 2,
      'gen_ai.usage.input_tokens': 200,
      'gen_ai.usage.output_tokens': 40,
      'gen_ai.usage.cache_read.input_tokens': 120,
      'gen_ai.usage.cache_creation.input_tokens': 10,
    });
    expect(run.events.map((e) => [e.name, ms(e.time), e.attributes?.['rxagent.stop.reason']])).toEqual([
      ['rxagent.stop', 60, 'completed'],
    ]);
    const [firstChat] = spans
      .filter((s) => s.name === 'chat marble-model')
      .sort((a, b) => ms(a.startTime) - ms(b.startTime));
    expect(firstChat?.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'marble-model',
      'gen_ai.response.model': 'marble-2',
      'gen_ai.response.finish_reasons': ['tool_call'],
      'gen_ai.response.time_to_first_chunk': 0.01,
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.cache_read.input_tokens': 60,
      'rxagent.step': 1,
    });
    const tools = spans.filter((s) => s.name === 'execute_tool wait');
    expect(tools.map((s) => s.attributes['gen_ai.tool.call.id']).sort()).toEqual(['c1', 'c2']);
    expect(tools[0]?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.type': 'function',
    });
    // Content is off by default.
    for (const span of spans) {
      for (const key of [
        'gen_ai.input.messages',
        'gen_ai.output.messages',
        'gen_ai.tool.call.arguments',
        'gen_ai.tool.call.result',
      ])
        expect(span.attributes[key]).toBeUndefined();
    }
  });

  it('marks a retry on the model call, at the time it happened', () => {
    const tracing = memoryTracing();
    createTestScheduler().run(({ cold, flush }) => {
      const model = marbleModel(
        cold,
        [
          { marble: '10ms #', error: new RateLimitError('Too many requests', { status: 429 }) },
          '5ms a 4ms (f|)',
        ],
        values,
      );
      runAgent({
        model,
        prompt: 'hi',
        retryBackoff: { initialDelayMs: 100, jitter: 0 },
        instrument: traceRun({ tracerProvider: tracing.provider }),
      }).subscribe();
      flush();
    });
    expect(spanTree(tracing.spans())).toEqual(['invoke_agent [0-120]', '  chat marble-model [0-120]']);
    const chat = spanNamed(tracing.spans(), 'chat marble-model');
    expect(chat.events.map((e) => [e.name, ms(e.time)])).toEqual([
      ['rxagent.retry', 10],
      ['rxagent.first_chunk', 115],
    ]);
    expect(chat.events[0]?.attributes).toMatchObject({
      'rxagent.retry.attempt': 1,
      'rxagent.retry.delay_ms': 100,
      'error.type': 'RateLimitError',
    });
    expect(chat.attributes['gen_ai.response.time_to_first_chunk']).toBe(0.115);
  });

  it('shows how long a tool call waited for its approval', () => {
    const tracing = memoryTracing();
    createTestScheduler().run(({ cold, flush }) => {
      const model = marbleModel(cold, ['10ms a 9ms (g|)', '5ms a 4ms (f|)'], values);
      runAgent({
        model,
        prompt: 'hi',
        tools: [waitTool(true)],
        approver: (req) => timer(req.toolCallId === 'c1' ? 40 : 5).pipe(map(() => req.toolCallId === 'c1')),
        instrument: traceRun({ tracerProvider: tracing.provider }),
      }).subscribe();
      flush();
    });
    const spans = tracing.spans();
    expect(spanTree(spans)).toEqual([
      'invoke_agent [0-100]',
      '  chat marble-model [0-20]',
      '    execute_tool wait [20-25]',
      '    execute_tool wait [20-90]',
      '  chat marble-model [90-100]',
    ]);
    const c1 = spans.find((s) => s.attributes['gen_ai.tool.call.id'] === 'c1');
    expect(c1?.events.map((e) => [e.name, ms(e.time), e.attributes?.['rxagent.approval.wait_ms']])).toEqual([
      ['rxagent.approval.request', 20, undefined],
      ['rxagent.approval.end', 60, 40],
    ]);
    expect(c1?.events[1]?.attributes?.['rxagent.approval.approved']).toBe(true);
    const c2 = spans.find((s) => s.attributes['gen_ai.tool.call.id'] === 'c2');
    expect(c2?.events[1]?.attributes?.['rxagent.approval.approved']).toBe(false);
    expect(c2?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'The tool call ended with an error result.',
    });
  });

  it('sets the error status with the typed error class and message, and never the key', () => {
    const tracing = memoryTracing();
    const key = 'sk-test-very-secret-key';
    let failed: unknown;
    createTestScheduler().run(({ cold, flush }) => {
      const error = new AuthError('Invalid API key: check OPENAI_API_KEY.', {
        status: 401,
        body: { error: `bad key ${key}` },
        cause: new Error(`header Authorization: Bearer ${key}`),
      });
      const model = marbleModel(cold, [{ marble: '10ms #', error }], values);
      runAgent({ model, prompt: 'hi', instrument: traceRun({ tracerProvider: tracing.provider }) }).subscribe(
        {
          error: (e: unknown) => (failed = e),
        },
      );
      flush();
    });
    expect(failed).toBeInstanceOf(AuthError);
    const spans = tracing.spans();
    expect(spanTree(spans)).toEqual(['invoke_agent [0-10]', '  chat marble-model [0-10]']);
    for (const span of spans) {
      expect(span.status).toEqual({
        code: SpanStatusCode.ERROR,
        message: 'AuthError: Invalid API key: check OPENAI_API_KEY.',
      });
      expect(span.attributes['error.type']).toBe('AuthError');
    }
    const everything = JSON.stringify(
      spans.map((s) => ({ a: s.attributes, e: s.events, st: s.status, n: s.name })),
    );
    expect(everything).not.toContain(key);
  });

  it('steering and the stop reason are events of the run span', () => {
    const tracing = memoryTracing();
    createTestScheduler().run(({ cold, flush }) => {
      const model = marbleModel(cold, ['10ms a 9ms (g|)', '5ms a 4ms (f|)'], values);
      runAgent({
        model,
        prompt: 'hi',
        tools: [waitTool()],
        steering$: cold('25ms s', { s: 'Only the first one.' }),
        instrument: traceRun({ tracerProvider: tracing.provider }),
      }).subscribe();
      flush();
    });
    const run = spanNamed(tracing.spans(), 'invoke_agent');
    expect(run.events.map((e) => [e.name, ms(e.time)])).toEqual([
      ['rxagent.steering', 50],
      ['rxagent.stop', 60],
    ]);
  });

  it('records compaction on the model call it came before', () => {
    const tracing = memoryTracing();
    createTestScheduler().run(({ cold, flush }) => {
      const model = marbleModel(cold, ['5ms a 4ms (f|)'], values);
      runAgent({
        model,
        prompt: 'hi',
        contextManager: {
          project: (messages) => ({
            messages,
            compaction: { strategy: 'drop-oldest', tokensBefore: 900, tokensAfter: 300, summarized: 4 },
          }),
        },
        instrument: traceRun({ tracerProvider: tracing.provider }),
      }).subscribe();
      flush();
    });
    const chat = spanNamed(tracing.spans(), 'chat marble-model');
    expect(chat.events[0]).toMatchObject({
      name: 'rxagent.compaction',
      attributes: {
        'rxagent.compaction.strategy': 'drop-oldest',
        'rxagent.compaction.tokens_before': 900,
        'rxagent.compaction.tokens_after': 300,
        'rxagent.compaction.summarized': 4,
      },
    });
    expect(ms(chat.events[0]!.time)).toBe(0);
  });

  it('as an operator, ends what is open when the run is unsubscribed', () => {
    const tracing = memoryTracing();
    createTestScheduler().run(({ cold, flush }) => {
      const model = marbleModel(cold, ['10ms a 9ms (g|)'], values);
      const sub = runAgent({ model, prompt: 'hi', tools: [waitTool()] })
        .pipe(traceRun({ tracerProvider: tracing.provider }))
        .subscribe();
      cold('25ms x').subscribe(() => sub.unsubscribe());
      flush();
    });
    const spans = tracing.spans();
    expect(spanTree(spans)).toEqual([
      'invoke_agent [0-25]',
      // Right after runAgent the operator is the run's instrument: the model is known from the start.
      '  chat marble-model [0-20]',
      '    execute_tool wait [20-25]',
      '    execute_tool wait [20-25]',
    ]);
    expect(spanNamed(spans, 'invoke_agent').events.map((e) => e.name)).toEqual(['rxagent.cancelled']);
    expect(spanNamed(spans, 'invoke_agent').attributes['gen_ai.provider.name']).toBe('marble');
  });
});
