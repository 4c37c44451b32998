import { AuthError, runAgent, type ModelEvent } from '@rxagent/core';
import { assistantMessage, createTestScheduler, finishEvent, marbleModel } from '@rxagent/testing';
import { SpanStatusCode } from '@opentelemetry/api';
import { traceRun } from './trace-run.js';
import { memoryTracing } from './test-tracing.test.js';

const values: Record<string, ModelEvent> = { f: finishEvent(assistantMessage([], 'stop')) };

describe('traceRun: keys in errors', () => {
  it('redacts the secrets a model declares from the error it records (a model whose errors quote its key)', () => {
    const tracing = memoryTracing();
    const key = 'sk-custom-model-key-5678';
    createTestScheduler().run(({ cold, flush }) => {
      const error = new AuthError(`Invalid API key ${key}`, { status: 401 });
      const model = { ...marbleModel(cold, [{ marble: '10ms #', error }], values), secrets: [key] };
      runAgent({ model, prompt: 'hi', instrument: traceRun({ tracerProvider: tracing.provider }) }).subscribe(
        {
          error: () => undefined,
        },
      );
      flush();
    });
    const spans = tracing.spans();
    expect(spans[0]?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: 'AuthError: Invalid API key [redacted]',
    });
    expect(JSON.stringify(spans.map((s) => ({ a: s.attributes, e: s.events, st: s.status })))).not.toContain(
      key,
    );
  });
});
