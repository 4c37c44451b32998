// One run, every reading of it: a run with a retried model call, a context summary call and a
// sub-agent, watched by the dashboard (card and timeline), the demo (summary line and
// --timeline), runResult, the OpenTelemetry run span and state$. Each must give the same total
// tokens and cost — the state fold's — and that total must be what the run really spent.
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { takeWhile } from 'rxjs';
import { z } from 'zod';
import { contextEngine } from '@rxagent/context';
import { Agent, RateLimitError, tool, userMessage, type AgentMessage } from '@rxagent/core';
import { runResult } from '@rxagent/core/streams';
import { RunRegistry, TimelineStore } from '@rxagent/dashboard';
import { traceRun } from '@rxagent/otel';
import { subagentTool } from '@rxagent/subagents';
import { assistantMessage, errorTurn, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { TerminalRenderer } from './render-terminal.js';
import { StepTimeline } from './step-timeline.js';
import { formatCost } from './summary.js';

const PRICE = { inputPerMillion: 1, outputPerMillion: 4 };
/** What each call spends: [input, output] tokens. */
const SPENT = {
  summary: [5000, 40],
  delegate: [900, 20],
  scoutLookup: [40, 8],
  scoutAnswer: [60, 6],
  answer: [950, 10],
} as const;
const usageOf = ([inputTokens, outputTokens]: readonly [number, number]) => ({ inputTokens, outputTokens });
const costOf = ([input, output]: readonly [number, number]) =>
  (input * PRICE.inputPerMillion + output * PRICE.outputPerMillion) / 1e6;

/** 20 long exchanges (~10,000 tokens): over an 8,000-token window, so the first call summarizes. */
function longTranscript(): AgentMessage[] {
  const messages: AgentMessage[] = [userMessage('Keep an eye on auth.')];
  for (let i = 0; i < 20; i++)
    messages.push(
      assistantMessage([{ type: 'text', text: `Note ${i}: ${'a'.repeat(2_000)}` }]),
      userMessage(`More ${i}`),
    );
  return messages;
}

function theAgent(tracerProvider: BasicTracerProvider): Agent {
  const prices = { parent: PRICE, scout: PRICE };
  const lookup = tool({
    name: 'lookup',
    description: 'Looks a topic up',
    parameters: z.object({ topic: z.string() }),
    execute: ({ topic }) => `notes on ${topic}`,
  });
  const scout = {
    description: 'Looks things up',
    model: scriptedModel(
      [
        toolCallTurn({ name: 'lookup', args: { topic: 'auth' } }, { usage: usageOf(SPENT.scoutLookup) }),
        textTurn('auth: all good.', { usage: usageOf(SPENT.scoutAnswer) }),
      ],
      { modelId: 'scout' },
    ),
    tools: [lookup],
    prices,
  };
  const parent = scriptedModel(
    [
      errorTurn(new RateLimitError('Too many requests', { status: 429 })),
      toolCallTurn(
        { name: 'subagent', args: { agent: 'scout', task: 'Check auth' } },
        { usage: usageOf(SPENT.delegate) },
      ),
      textTurn('Auth is fine.', { usage: usageOf(SPENT.answer) }),
    ],
    { modelId: 'parent' },
  );
  // The summary model reports its cost itself: the context engine does not price summary calls.
  const summaries = scriptedModel(
    [
      textTurn('## Goal\nWatch auth.', {
        usage: { ...usageOf(SPENT.summary), costUsd: costOf(SPENT.summary) },
      }),
    ],
    { modelId: 'summarizer' },
  );
  return new Agent({
    model: parent,
    messages: longTranscript(),
    tools: [subagentTool({ agents: { scout } })],
    contextManager: contextEngine({ model: parent, summaryModel: summaries, contextWindow: 8_000 }),
    retryBackoff: { initialDelayMs: 1, jitter: 0 },
    prices,
    instrument: traceRun({ tracerProvider, agentName: 'watcher' }),
  });
}

describe('totals agree: one run with a retry, a summary call and a sub-agent', () => {
  it('gives the same total tokens and cost on the card, the timelines, the summary, runResult, the span and state$', async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const agent = theAgent(tracerProvider);
    const registry = new RunRegistry({ throttleMs: 0 });
    const timelines = new TimelineStore(registry);
    const id = registry.add(agent, 'watcher');
    let printed = '';
    const renderer = new TerminalRenderer({ out: { write: (s: string) => (printed += s) } });
    const stepTimeline = new StepTimeline(() => Date.now());
    const subscriptions = [
      agent.events$.subscribe(renderer),
      agent.events$.subscribe((e) => stepTimeline.see(e)),
    ];
    const result$ = runResult(agent.events$.pipe(takeWhile((e) => e.type !== 'agent-end', true)));

    const prompted = await agent.prompt('Is auth fine?');
    const result = await result$;
    subscriptions.forEach((s) => s.unsubscribe());

    // What the run spent: every call that answered (the failed attempt spent nothing).
    const calls = Object.values(SPENT);
    const tokens = calls.reduce((sum, [input, output]) => sum + input + output, 0);
    const cost = calls.reduce((sum, c) => sum + costOf(c), 0);
    const state = agent.state$.value;
    expect(prompted.reason).toBe('completed');
    expect(state.retries).toBe(1);
    expect(Object.values(state.subruns).map((s) => [s.path, s.phase])).toEqual([[['scout'], 'idle']]);
    expect(state.usage.totalTokens).toBe(tokens);
    expect(state.usage.inputTokens + state.usage.outputTokens).toBe(tokens);
    expect(state.usage.costUsd).toBeCloseTo(cost, 12);

    // runResult and the Agent's own result.
    expect(result.usage).toEqual(state.usage);
    expect(prompted.usage).toEqual(state.usage);

    // The dashboard: the card, and the timeline (its totals, and its rows adding up to them).
    const card = registry.snapshot(id);
    expect(card?.tokens).toEqual({
      input: state.usage.inputTokens,
      output: state.usage.outputTokens,
      total: tokens,
      costUsd: state.usage.costUsd,
    });
    const view = timelines.view(id);
    expect(view?.totals).toEqual({ ...card?.tokens, steps: 2 });
    expect(view?.rows.reduce((sum, r) => sum + (r.tokens?.total ?? 0), 0)).toBe(tokens);
    expect(view?.rows.map((r) => [r.kind, r.depth, r.tokens?.total ?? 0])).toEqual([
      ['summary', 0, 5040],
      ['model', 0, 920],
      ['tool', 0, 0],
      ['subrun', 1, 0],
      ['model', 2, 48],
      ['tool', 2, 0],
      ['model', 2, 66],
      ['model', 0, 960],
    ]);
    expect(view?.rows[0]?.marks.map((m) => m.kind)).toEqual(['compaction']);
    expect(view?.rows[1]?.marks.map((m) => m.kind)).toEqual(['retry']);

    // The demo: its summary line and its --timeline total.
    const total = tokens.toLocaleString('en-US');
    const summary = printed.split('\n').find((line) => line.startsWith('2 steps · tokens: '));
    expect(summary).toContain(`, ${total} total (114 by 1 sub-run) · ${formatCost(cost)} · `);
    expect(stepTimeline.format()).toContain(
      `  total: 2 steps · ${total} tokens · 114 tokens by sub-runs · ${formatCost(cost)}\n`,
    );

    // OpenTelemetry: the run span's usage attributes (the GenAI conventions have no total).
    const runSpan = exporter
      .getFinishedSpans()
      .find((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent');
    expect(runSpan?.attributes['gen_ai.usage.input_tokens']).toBe(state.usage.inputTokens);
    expect(runSpan?.attributes['gen_ai.usage.output_tokens']).toBe(state.usage.outputTokens);
    expect(runSpan?.attributes['rxagent.usage.cost_usd']).toBeCloseTo(cost, 12);
    registry.close();
    timelines.close();
    await tracerProvider.shutdown();
  });
});
