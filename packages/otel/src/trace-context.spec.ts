import { z } from 'zod';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { Agent, runAgent, tool } from '@rxagent/core';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { traceRun } from './trace-run.js';
import { memoryTracing, spanNamed, spanTree } from './test-tracing.test.js';

const manager = new AsyncLocalStorageContextManager();
beforeAll(() => context.setGlobalContextManager(manager.enable()));
afterAll(() => {
  manager.disable();
  context.disable();
});

const parentOf = (spans: ReturnType<ReturnType<typeof memoryTracing>['spans']>, name: string) => {
  const child = spanNamed(spans, name);
  const parentId = child.parentSpanContext?.spanId;
  return spans.find((s) => s.spanContext().spanId === parentId)?.name;
};

describe('traceRun and the active context', () => {
  it("nests a tool's own spans under its execute_tool span, across awaits", async () => {
    const tracing = memoryTracing();
    const lookup = tool({
      name: 'lookup',
      description: 'Looks a city up',
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        await new Promise((resolve) => setImmediate(resolve));
        // What a database or HTTP instrumentation does: a span under whatever is active.
        const span = tracing.provider.getTracer('db').startSpan('SELECT cities');
        span.end();
        return `${city}: 21°C`;
      },
    });
    const model = scriptedModel([
      toolCallTurn({ name: 'lookup', args: { city: 'Paris' }, id: 'c1' }),
      textTurn('21°C'),
    ]);
    await collectEvents(
      runAgent({
        model,
        prompt: 'Weather?',
        tools: [lookup],
        instrument: traceRun({ tracerProvider: tracing.provider }),
      }),
    );
    expect(parentOf(tracing.spans(), 'SELECT cities')).toBe('execute_tool lookup');
  });

  it('does so in the operator form too, right after runAgent', async () => {
    const tracing = memoryTracing();
    const lookup = tool({
      name: 'lookup',
      description: 'Looks a city up',
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        await new Promise((resolve) => setImmediate(resolve));
        tracing.provider.getTracer('db').startSpan('SELECT cities').end();
        return `${city}: 21°C`;
      },
    });
    const model = scriptedModel([
      toolCallTurn({ name: 'lookup', args: { city: 'Paris' }, id: 'c1' }),
      textTurn('21°C'),
    ]);
    await collectEvents(
      runAgent({ model, prompt: 'Weather?', tools: [lookup] }).pipe(
        traceRun({ tracerProvider: tracing.provider }),
      ),
    );
    expect(parentOf(tracing.spans(), 'SELECT cities')).toBe('execute_tool lookup');
  });

  it("nests a run started inside a user's span under it", async () => {
    const tracing = memoryTracing();
    const tracer = tracing.provider.getTracer('app');
    await tracer.startActiveSpan('POST /ask', async (span) => {
      await collectEvents(
        runAgent({
          model: scriptedModel([textTurn('Hi')]),
          prompt: 'hi',
          instrument: traceRun({ tracerProvider: tracing.provider }),
        }),
      );
      span.end();
    });
    expect(parentOf(tracing.spans(), 'invoke_agent')).toBe('POST /ask');
  });

  it('nests a sub-run started by a tool under that tool call', async () => {
    const tracing = memoryTracing();
    const tracer = traceRun({ tracerProvider: tracing.provider });
    const delegate = tool({
      name: 'delegate',
      description: 'Asks a helper agent',
      parameters: z.object({ task: z.string() }),
      execute: async ({ task }) => {
        const events = await collectEvents(
          runAgent({ model: scriptedModel([textTurn('helped')]), prompt: task, instrument: tracer }),
        );
        return events.length;
      },
    });
    const model = scriptedModel([toolCallTurn({ name: 'delegate', args: { task: 'help' } }), textTurn('ok')]);
    await collectEvents(runAgent({ model, prompt: 'go', tools: [delegate], instrument: tracer }));
    const names = spanTree(tracing.spans()).map((line) => line.replace(/ \[.*$/, ''));
    expect(names).toEqual([
      'invoke_agent',
      '  chat scripted-model',
      '    execute_tool delegate',
      '      invoke_agent',
      '        chat scripted-model',
      '  chat scripted-model',
    ]);
  });

  it('traces every prompt of an Agent given traceRun as its instrument', async () => {
    const tracing = memoryTracing();
    const agent = new Agent({
      model: scriptedModel([textTurn('one'), textTurn('two')]),
      instrument: traceRun({
        tracerProvider: tracing.provider,
        agentName: 'helper',
        conversationId: 'conv-1',
      }),
    });
    await agent.prompt('first');
    await agent.prompt('second');
    const runs = tracing.spans().filter((s) => s.name === 'invoke_agent helper');
    expect(runs).toHaveLength(2);
    expect(runs.map((r) => r.attributes['gen_ai.conversation.id'])).toEqual(['conv-1', 'conv-1']);
    expect(new Set(runs.map((r) => r.spanContext().traceId)).size).toBe(2);
  });

  it('records content only when asked, truncated to the bound', async () => {
    const long = 'x'.repeat(500);
    const echo = tool({
      name: 'echo',
      description: 'Echoes',
      parameters: z.object({ text: z.string() }),
      execute: ({ text }) => text,
    });
    const run = async (captureContent: boolean) => {
      const tracing = memoryTracing();
      const model = scriptedModel([
        toolCallTurn({ name: 'echo', args: { text: long } }),
        textTurn('Echoed.'),
      ]);
      await collectEvents(
        runAgent({
          model,
          prompt: 'Echo this',
          tools: [echo],
          instrument: traceRun({ tracerProvider: tracing.provider, captureContent, maxContentLength: 100 }),
        }),
      );
      return tracing.spans();
    };
    const off = JSON.stringify((await run(false)).map((s) => s.attributes));
    expect(off).not.toContain('xxxx');
    expect(off).not.toContain('Echo this');

    const spans = await run(true);
    const toolSpan = spanNamed(spans, 'execute_tool echo');
    const args = toolSpan.attributes['gen_ai.tool.call.arguments'] as string;
    expect(args.startsWith('{"text":"xxx')).toBe(true);
    expect(args).toHaveLength(100 + '…[truncated]'.length);
    expect(args.endsWith('…[truncated]')).toBe(true);
    expect((toolSpan.attributes['gen_ai.tool.call.result'] as string).length).toBe(112);
    const chats = spans.filter((s) => s.name === 'chat scripted-model');
    const input = JSON.parse(chats[0]?.attributes['gen_ai.input.messages'] as string) as unknown;
    expect(input).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'Echo this' }] }]);
    const output = JSON.parse(chats[1]?.attributes['gen_ai.output.messages'] as string) as unknown;
    expect(output).toEqual([
      { role: 'assistant', parts: [{ type: 'text', content: 'Echoed.' }], finish_reason: 'stop' },
    ]);
  });

  it('refuses a maxContentLength that is not a count, saying so', () => {
    expect(() => traceRun({ maxContentLength: -1 })).toThrow(
      'Invalid option maxContentLength: received -1; expected an integer >= 0.',
    );
  });
});
