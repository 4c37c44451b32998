import { SpanStatusCode } from '@opentelemetry/api';
import type { AgentEvent } from '@rxagent/core';
import { createTestScheduler } from '@rxagent/testing';
import { traceRun } from './trace-run.js';
import { memoryTracing, ms, spanNamed, spanTree } from './test-tracing.test.js';

const values: Record<string, AgentEvent> = {
  a: { type: 'agent-start', runId: 'r1' },
  t: { type: 'turn-start', step: 1 },
  m: {
    type: 'message-end',
    message: {
      role: 'assistant',
      content: [{ type: 'text', text: 'Hi' }],
      stopReason: 'stop',
      usage: { inputTokens: 3, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 5 },
      provider: 'openai',
      model: 'gpt-4o-mini',
      timestamp: 0,
    },
  },
  e: {
    type: 'agent-end',
    reason: 'completed',
    signal: { reason: 'completed', message: 'The model answered.' },
    messages: [],
    usage: { inputTokens: 3, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 5 },
    steps: 1,
  },
};

// traceRun as an operator, in the RxJS spec shape: it passes the events on unchanged,
// subscribes once, and forwards errors and unsubscription.
describe('traceRun (operator)', () => {
  it('passes every event through unchanged and ends the spans with the run', () => {
    const tracing = memoryTracing();
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('a-tm-e|', values);
      const e1subs = '^-----!';
      const expected = 'a-tm-e|';
      expectObservable(e1.pipe(traceRun({ tracerProvider: tracing.provider }))).toBe(expected, values);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
    // On an event stream (not a run), the model is learnt from the answer.
    expect(spanTree(tracing.spans())).toEqual(['invoke_agent [0-5]', '  chat gpt-4o-mini [2-3]']);
    // The run's totals are the state fold's (the answer's usage), as withState reads them.
    expect(spanNamed(tracing.spans(), 'invoke_agent').attributes['gen_ai.usage.output_tokens']).toBe(2);
  });

  it('passes an error on and sets the error status', () => {
    const tracing = memoryTracing();
    const error = new TypeError('boom');
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('a-t-#', values, error);
      const e1subs = '^---!';
      const expected = 'a-t-#';
      expectObservable(e1.pipe(traceRun({ tracerProvider: tracing.provider }))).toBe(expected, values, error);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
    const run = spanNamed(tracing.spans(), 'invoke_agent');
    expect(run.status).toEqual({ code: SpanStatusCode.ERROR, message: 'TypeError: boom' });
    expect(ms(run.endTime)).toBe(4);
  });

  it('unsubscribes from the source when unsubscribed, and ends what was open then', () => {
    const tracing = memoryTracing();
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('a-t-----e|', values);
      const e1subs = '^--!';
      const unsub = '^--!';
      const expected = 'a-t';
      expectObservable(e1.pipe(traceRun({ tracerProvider: tracing.provider })), unsub).toBe(expected, values);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
    expect(spanTree(tracing.spans())).toEqual(['invoke_agent [0-3]', '  chat [2-3]']);
    expect(spanNamed(tracing.spans(), 'chat').events.map((e) => e.name)).toEqual(['rxagent.cancelled']);
  });

  it('makes independent spans for each subscription', () => {
    const tracing = memoryTracing();
    createTestScheduler().run(({ cold, expectObservable }) => {
      const traced = cold('a-e|', values).pipe(traceRun({ tracerProvider: tracing.provider }));
      expectObservable(traced).toBe('a-e|', values);
      expectObservable(traced).toBe('a-e|', values);
    });
    const runs = tracing.spans().filter((s) => s.name === 'invoke_agent');
    expect(runs).toHaveLength(2);
    expect(runs[0]?.spanContext().traceId).not.toBe(runs[1]?.spanContext().traceId);
  });
});
