// Every span of a set of scripted runs, made by the real OpenTelemetry SDK, validated against
// the GenAI semantic conventions v1.41.1 (see semconv-validator.test.ts and fixtures/README.md).
import { z } from 'zod';
import { lastValueFrom, NEVER, takeWhile } from 'rxjs';
import { context, SpanStatusCode } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  AuthError,
  initialAgentState,
  RateLimitError,
  reduceAgentState,
  runAgent,
  tool,
  type AgentEvent,
  type RunAgentConfig,
} from '@rxagent/core';
import { collectEvents, scriptedModel, textTurn, toolCallTurn, type ScriptedTurn } from '@rxagent/testing';
import { traceRun } from './trace-run.js';
import { memoryTracing, spanNamed } from './test-tracing.test.js';
import { validateSpans, type Check, type SpanFacts } from './semconv-validator.test.js';

// Context across awaits (a sub-run started by a tool), as the Node SDK registers it.
const manager = new AsyncLocalStorageContextManager();
beforeAll(() => context.setGlobalContextManager(manager.enable()));
afterAll(() => {
  manager.disable();
  context.disable();
});

/** A turn whose answer carries a response id. */
const withId = (turn: ScriptedTurn, id: string): ScriptedTurn => ({
  ...turn,
  events: turn.events.map((e) =>
    e.type === 'finish' ? { ...e, message: { ...e.message, responseId: id } } : e,
  ),
});
const usage = { inputTokens: 50, outputTokens: 20, reasoningTokens: 8 };

const read = tool({
  name: 'read',
  description: 'Reads a file',
  parameters: z.object({ path: z.string() }),
  execute: ({ path }) => `contents of ${path}`,
});
const broken = tool({
  name: 'parse',
  description: 'Parses a file',
  parameters: z.object({}),
  execute: () => {
    throw new TypeError('Cannot read properties of undefined');
  },
});
const forever = tool({
  name: 'wait',
  description: 'Waits for ever',
  parameters: z.object({}),
  execute: () => NEVER,
});

interface Traced {
  spans: readonly ReadableSpan[];
  events: AgentEvent[];
}

async function traced(
  config: Omit<RunAgentConfig, 'instrument'>,
  options: Parameters<typeof traceRun>[0] = {},
): Promise<Traced> {
  const tracing = memoryTracing();
  const events: AgentEvent[] = [];
  await collectEvents(
    runAgent({ ...config, instrument: traceRun({ tracerProvider: tracing.provider, ...options }) }),
  ).then(
    (all) => events.push(...all),
    () => undefined,
  );
  return { spans: tracing.spans(), events };
}

const all: Check[] = [];
function expectConformant(spans: readonly ReadableSpan[], facts: SpanFacts): Check[] {
  const checks = validateSpans(spans, facts);
  all.push(...checks);
  expect(checks.filter((c) => !c.ok).map((c) => `${c.span}: ${c.rule}`)).toEqual([]);
  return checks;
}

describe('spans of scripted runs follow the GenAI semantic conventions v1.41.1', () => {
  it('a run with tools, request options, a system prompt and an agent name', async () => {
    const model = scriptedModel(
      [
        withId(
          toolCallTurn(
            [
              { name: 'read', args: { path: 'a.md' } },
              { name: 'read', args: { path: 'b.md' } },
            ],
            { usage },
          ),
          'resp-1',
        ),
        withId(textTurn('Both are notes.', { usage }), 'resp-2'),
      ],
      { provider: 'openai', modelId: 'gpt-4o-mini' },
    );
    const { spans } = await traced(
      {
        model,
        prompt: 'Read a.md and b.md',
        tools: [read],
        maxTokens: 1024,
        temperature: 0.3,
        system: 'Be brief.',
      },
      { agentName: 'helper', conversationId: 'conv-1' },
    );
    expect(spans.map((s) => s.name).sort()).toEqual([
      'chat gpt-4o-mini',
      'chat gpt-4o-mini',
      'execute_tool read',
      'execute_tool read',
      'invoke_agent helper',
    ]);
    expectConformant(spans, {
      maxTokens: true,
      temperature: true,
      agentName: true,
      conversationId: true,
      system: true,
      responseId: true,
      reasoning: true,
    });
    const run = spanNamed(spans, 'invoke_agent helper');
    expect(run.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
    expect(run.attributes['gen_ai.usage.output_tokens']).toBe(40);
  });

  it('a tool that throws, then a model call that fails the run', async () => {
    const model = scriptedModel(
      [
        toolCallTurn({ name: 'parse', args: {} }),
        { events: [], error: new AuthError('Invalid API key', { status: 401 }) },
      ],
      { provider: 'openai', modelId: 'gpt-4o-mini' },
    );
    const { spans } = await traced({ model, prompt: 'Parse it', tools: [broken] });
    expectConformant(spans, {});
    expect(spanNamed(spans, 'execute_tool parse').attributes['error.type']).toBe('TypeError');
    expect(spanNamed(spans, 'invoke_agent').attributes['error.type']).toBe('AuthError');
  });

  it('a retried model call (one span, a retry event)', async () => {
    const model = scriptedModel(
      [
        { events: [], error: new RateLimitError('Too many requests', { status: 429 }) },
        textTurn('Hello.', { usage }),
      ],
      { provider: 'anthropic', modelId: 'claude-sonnet-4-5' },
    );
    const { spans } = await traced({ model, prompt: 'Hi', retryBackoff: { initialDelayMs: 1, jitter: 0 } });
    expectConformant(spans, {});
    const chat = spanNamed(spans, 'chat claude-sonnet-4-5');
    expect(chat.events.map((e) => e.name)).toContain('rxagent.retry');
  });

  it('content capture: the chat history given to the model, the system instructions, the answers', async () => {
    const model = scriptedModel(
      [toolCallTurn({ name: 'read', args: { path: 'a.md' } }), textTurn('A note.')],
      { provider: 'anthropic', modelId: 'claude-sonnet-4-5' },
    );
    const { spans } = await traced(
      { model, prompt: 'Read a.md', tools: [read], system: 'Be brief.' },
      { captureContent: true },
    );
    expectConformant(spans, { captureContent: true, system: true });
    const [, second] = spans
      .filter((s) => s.name.startsWith('chat'))
      .sort((a, b) => Number(a.attributes['rxagent.step']) - Number(b.attributes['rxagent.step']));
    const input = JSON.parse(String(second?.attributes['gen_ai.input.messages'])) as { role: string }[];
    expect(input.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(JSON.parse(String(second?.attributes['gen_ai.system_instructions']))).toEqual([
      { type: 'text', content: 'Be brief.' },
    ]);
  });

  it('a run asking for JSON output', async () => {
    const model = scriptedModel([textTurn('{"answer":"42"}')], {
      provider: 'openai',
      modelId: 'gpt-4o-mini',
    });
    const { spans } = await traced({
      model,
      prompt: 'Answer',
      output: z.object({ answer: z.string() }),
      outputMode: 'native',
    });
    expectConformant(spans, { outputType: true });
    expect(spanNamed(spans, 'chat gpt-4o-mini').attributes['gen_ai.output.type']).toBe('json');
  });

  it('a cancelled run: error status, and the totals the state fold reached', async () => {
    const tracing = memoryTracing();
    const model = scriptedModel([toolCallTurn({ name: 'wait', args: {} }, { usage })], {
      provider: 'openai',
      modelId: 'gpt-4o-mini',
    });
    const events: AgentEvent[] = [];
    await lastValueFrom(
      runAgent({
        model,
        prompt: 'Wait',
        tools: [forever],
        instrument: traceRun({ tracerProvider: tracing.provider }),
      }).pipe(
        takeWhile((e) => {
          events.push(e);
          return e.type !== 'tool-start';
        }),
      ),
      { defaultValue: undefined },
    );
    const spans = tracing.spans();
    expectConformant(spans, {});
    const run = spanNamed(spans, 'invoke_agent');
    expect(run.status.code).toBe(SpanStatusCode.ERROR);
    expect(run.attributes['error.type']).toBe('cancelled');
    const folded = events.reduce(reduceAgentState, initialAgentState());
    expect(run.attributes['gen_ai.usage.output_tokens']).toBe(folded.usage.outputTokens);
    expect(run.attributes['gen_ai.usage.output_tokens']).toBe(20);
    expect(spanNamed(spans, 'execute_tool wait').attributes['error.type']).toBe('cancelled');
  });

  it('a guardrail that trips (its check is a span of its own)', async () => {
    const model = scriptedModel([textTurn('never')], { provider: 'openai', modelId: 'gpt-4o-mini' });
    const { spans, events } = await traced({
      model,
      prompt: 'Something bad',
      inputGuardrails: [{ name: 'moderation', check: () => ({ tripped: true, reason: 'Not allowed.' }) }],
    });
    expectConformant(spans, {});
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'guardrail' });
    expect(spanNamed(spans, 'guardrail moderation').attributes).toMatchObject({
      'rxagent.guardrail.kind': 'input',
      'rxagent.guardrail.outcome': 'tripped',
    });
  });

  it('a sub-agent run by a tool nests under its tool call', async () => {
    const tracing = memoryTracing();
    const subModel = scriptedModel([textTurn('Found it.')], { provider: 'openai', modelId: 'gpt-4o-mini' });
    const delegate = tool({
      name: 'delegate',
      description: 'Hands the question to a researcher agent',
      parameters: z.object({ question: z.string() }),
      execute: async ({ question }) => {
        const events = await collectEvents(
          runAgent({
            model: subModel,
            prompt: question,
            instrument: traceRun({ tracerProvider: tracing.provider, agentName: 'researcher' }),
          }),
        );
        const end = events.at(-1);
        return end?.type === 'agent-end' ? 'Found it.' : 'nothing';
      },
    });
    const model = scriptedModel(
      [toolCallTurn({ name: 'delegate', args: { question: 'Where?' } }), textTurn('Done.')],
      { provider: 'openai', modelId: 'gpt-4o-mini' },
    );
    await collectEvents(
      runAgent({
        model,
        prompt: 'Find it',
        tools: [delegate],
        instrument: traceRun({ tracerProvider: tracing.provider, agentName: 'lead' }),
      }),
    );
    const spans = tracing.spans();
    expectConformant(spans, { agentName: true });
    const sub = spanNamed(spans, 'invoke_agent researcher');
    const parent = spans.find((s) => s.spanContext().spanId === sub.parentSpanContext?.spanId);
    expect(parent?.name).toBe('execute_tool delegate');
  });

  it('made every check (and each kind of span was checked)', () => {
    expect(all.length).toBeGreaterThan(1500);
    expect(new Set(all.map((c) => c.span.split(' ')[0]))).toEqual(
      new Set(['invoke_agent', 'chat', 'execute_tool', 'guardrail']),
    );
  });
});
