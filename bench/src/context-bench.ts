import { contextEngine } from '@rxagent/context';
import {
  emptyUsage,
  jsonSchema,
  runAgent,
  tool,
  type AgentEvent,
  type ChatRequest,
  type Message,
} from '@rxagent/core';
import type { ContextManagerContext } from '@rxagent/core/context';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { asyncScheduler, lastValueFrom, toArray } from 'rxjs';
import { medianOf } from './measure.js';

/** A transcript of `size` messages: the goal, then tool calls and their ~1,200-character results. */
function transcript(size: number): Message[] {
  const messages: Message[] = [{ role: 'user', content: 'Read every file.', timestamp: 0 }];
  for (let i = 0; messages.length < size; i++) {
    messages.push(
      {
        role: 'assistant',
        content: [{ type: 'tool-call', id: `c${i}`, name: 'read', args: { path: `src/f${i}.ts` } }],
        stopReason: 'tool-calls',
        usage: emptyUsage(),
        provider: 'bench',
        model: 'bench',
        timestamp: 0,
      },
      {
        role: 'tool',
        toolCallId: `c${i}`,
        toolName: 'read',
        content: [{ type: 'text', text: 'x'.repeat(1_200) }],
        isError: false,
        timestamp: 0,
      },
    );
  }
  return messages.slice(0, size);
}

/** The transcript size the per-message cost of larger ones is compared with. */
const REFERENCE_SIZE = 1_000;

const context: ContextManagerContext = {
  step: 1,
  usage: emptyUsage(),
  signal: new AbortController().signal,
  scheduler: asyncScheduler,
};

export interface ProjectionResult {
  size: number;
  /** ms per projection, steady state (the same transcript again: estimates memoised). */
  msPerProjection: number;
  /**
   * Steady-state cost per message over that of a 1,000-message transcript, both measured back
   * to back in each round (the median of the rounds' ratios, so the machine's drift cancels).
   */
  perMessageGrowth: number;
  /** The size `perMessageGrowth` compares with. */
  referenceSize: number;
  /** ms per projection of a transcript never seen (every message estimated). */
  coldMsPerProjection: number;
  /** ms per projection of a transcript growing by one step (2 messages) per call, as in a run. */
  growingMsPerProjection: number;
  strategy: string;
}

/**
 * The cost of one projection without a summary (old tool results stubbed) of a transcript of
 * `size` messages, in a 200,000-token window.
 *
 * @example
 * await benchProjection(1_000); // { size: 1000, msPerProjection: 0.05, … }
 */
export async function benchProjection(size: number): Promise<ProjectionResult> {
  const model = scriptedModel([], { modelId: 'bench' });
  const messages = transcript(size);
  let strategy = 'none';
  const projector = () => {
    const engine = contextEngine({ model, contextWindow: 200_000 });
    return (input: readonly Message[]) => {
      engine.project(input, context).subscribe((p) => {
        if (!('type' in p)) strategy = p.compaction?.strategy ?? 'none';
      });
    };
  };
  const project = projector();
  const calls = 200;
  const steady = (projectOne: (input: readonly Message[]) => void, input: readonly Message[]) => {
    const start = performance.now();
    for (let i = 0; i < calls; i++) projectOne(input);
    return (performance.now() - start) / calls;
  };
  const msPerProjection = await medianOf(() => steady(project, messages));
  const steadyStrategy = strategy;
  const reference = transcript(REFERENCE_SIZE);
  const projectReference = projector();
  let round = 0;
  const perMessageGrowth =
    size === REFERENCE_SIZE
      ? 1
      : await medianOf(() => {
          // Back to back, the order alternating from round to round.
          const first = round++ % 2 === 0;
          const a = first ? steady(projectReference, reference) : 0;
          const b = steady(project, messages);
          const ref = first ? a : steady(projectReference, reference);
          return b / size / (ref / REFERENCE_SIZE);
        });
  const fresh = Array.from({ length: 20 }, () => transcript(size));
  let next = 0;
  const coldMsPerProjection = await medianOf(
    () => {
      const input = fresh[next++ % fresh.length] as Message[];
      const copy = input.map((m) => ({ ...m }));
      const start = performance.now();
      project(copy);
      return performance.now() - start;
    },
    { runs: 15 },
  );
  // One step (an assistant call and its result) appended before each call, from `size` on;
  // each round a new engine, primed with the first `size` messages outside the timing.
  const growth = 50;
  const longer = transcript(size + 2 * growth);
  const grown = Array.from({ length: growth }, (_, i) => longer.slice(0, size + 2 * (i + 1)));
  const growingMsPerProjection = await medianOf(() => {
    const projectGrowing = projector();
    projectGrowing(longer.slice(0, size));
    const start = performance.now();
    for (const input of grown) projectGrowing(input);
    return (performance.now() - start) / grown.length;
  });
  return {
    size,
    msPerProjection,
    perMessageGrowth,
    referenceSize: REFERENCE_SIZE,
    coldMsPerProjection,
    growingMsPerProjection,
    strategy: steadyStrategy,
  };
}

export interface LongRunResult {
  steps: number;
  contextWindow: number;
  calls: number;
  /** Σ over the calls of the transcript's tokens: what would have been sent without the engine. */
  transcriptTokens: number;
  /** Σ over the calls of the tokens sent. */
  sentTokens: number;
  summaries: number;
  summaryInputTokens: number;
  summaryOutputTokens: number;
  maxPercent: number;
}

const readTool = tool({
  name: 'read',
  description: 'Read a file',
  parameters: jsonSchema<{ path: string }>({
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
  }),
  execute: ({ path }) => `${path}: ${'x'.repeat(1_200)}`,
});

/**
 * The scripted 300-turn run of the context spec (one `read` per step, ~1,200-character
 * results) in an 8,000-token window: tokens sent vs the transcript's, and the summaries' cost
 * (the summary model reports prompt characters / 4 in, its text / 4 out).
 *
 * @example
 * const r = await benchLongRun(300); // r.transcriptTokens - r.sentTokens: tokens saved
 */
export async function benchLongRun(steps: number, contextWindow = 8_000): Promise<LongRunResult> {
  const model = scriptedModel([
    ...Array.from({ length: steps }, (_, i) =>
      toolCallTurn({ name: 'read', args: { path: `src/f${i % 40}.ts` } }, { text: `Step ${i}.` }),
    ),
    textTurn('Done.'),
  ]);
  const summaryModel = scriptedModel(
    Array.from({ length: steps }, () => (request: ChatRequest) => {
      const first = request.messages[0];
      const prompt = first?.role === 'user' && typeof first.content === 'string' ? first.content : '';
      const text = `## Goal\nRead every file.\n## Progress\n${prompt.length} characters summarized.\n## Key decisions\n- None.\n## Next steps\n- Go on.`;
      return textTurn(text, {
        usage: { inputTokens: Math.ceil(prompt.length / 4), outputTokens: Math.ceil(text.length / 4) },
      });
    }),
  );
  const events: AgentEvent[] = await lastValueFrom(
    runAgent({
      model,
      prompt: 'Read every file under src/.',
      tools: [readTool],
      maxSteps: steps + 1,
      contextManager: contextEngine({ model, contextWindow, summaryModel }),
    }).pipe(toArray()),
  );
  const result: LongRunResult = {
    steps,
    contextWindow,
    calls: 0,
    transcriptTokens: 0,
    sentTokens: 0,
    summaries: 0,
    summaryInputTokens: 0,
    summaryOutputTokens: 0,
    maxPercent: 0,
  };
  for (const e of events) {
    if (e.type === 'context-usage') {
      result.calls++;
      result.transcriptTokens += e.usage.transcriptTokens;
      result.sentTokens += e.usage.tokens;
      result.maxPercent = Math.max(result.maxPercent, e.usage.percent);
    }
    if (e.type === 'compaction' && e.usage) {
      result.summaries++;
      result.summaryInputTokens += e.usage.inputTokens;
      result.summaryOutputTokens += e.usage.outputTokens;
    }
  }
  return result;
}
