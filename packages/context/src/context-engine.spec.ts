import {
  ContextCompactionError,
  NetworkError,
  runAgent,
  type AgentEvent,
  type ChatRequest,
  type Message,
} from '@rxagent/core';
import { validateMessageSequence } from '@rxagent/core/provider';
import { collectEvents, settleRun } from '@rxagent/testing';
import { CHECKPOINT_HEADER } from './checkpoint.js';
import { contextEngine } from './context-engine.js';
import { estimateAll } from './estimate-tokens.js';
import {
  checkpointWriter,
  fileTools,
  pathOfStep,
  promptOf,
  TOOL_OF_STEP,
  workingModel,
} from './context-fixtures.test.js';
import { scriptedModel, errorTurn } from '@rxagent/testing';

const GOAL = 'Refactor every file under src/ to the new API.';
const text = (m: Message | undefined) => (m && typeof m.content === 'string' ? m.content : '');

describe('contextEngine on a 300-turn scripted run with an 8,000-token window', () => {
  const steps = 300;
  let model: ReturnType<typeof workingModel>;
  let summaries: ReturnType<typeof checkpointWriter>;
  let events: AgentEvent[];
  let engine: ReturnType<typeof contextEngine>;

  beforeAll(async () => {
    model = workingModel(steps);
    summaries = checkpointWriter();
    engine = contextEngine({ model, contextWindow: 8_000, summaryModel: summaries });
    events = await collectEvents(
      runAgent({ model, prompt: GOAL, tools: fileTools(), maxSteps: steps + 1, contextManager: engine }),
    );
  });

  it('completes every step', () => {
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed', steps: steps + 1 });
    expect(model.requests).toHaveLength(steps + 1);
  });

  it('stays under the window (minus the reserve) on every call, with valid transcripts', () => {
    const { contextWindow, reserveTokens } = engine.settings;
    for (const request of model.requests) {
      expect(estimateAll(request.messages)).toBeLessThanOrEqual(contextWindow - reserveTokens);
      expect(validateMessageSequence(request.messages)).toEqual([]);
    }
  });

  it('never drops the first user goal, and keeps the newest turns verbatim', () => {
    const transcript = (events.at(-1) as Extract<AgentEvent, { type: 'agent-end' }>).messages;
    for (const request of model.requests) {
      expect(text(request.messages[0])).toBe(GOAL);
      // The newest message (the last tool result, or the goal) is sent as it is in the transcript
      // (a call whose scripted id repeated an earlier one goes to the model under that id).
      const last = request.messages.at(-1);
      expect(transcript.some((m) => sameContent(m, last))).toBe(true);
    }
    const final = model.requests.at(-1) as ChatRequest;
    expect(final.messages.slice(-6).every((m) => transcript.some((t) => sameContent(t, m)))).toBe(true);
  });

  it('summarizes, incrementally, into a checkpoint with the goal, the progress and every file touched', () => {
    const compactions = events.filter((e) => e.type === 'compaction');
    const summariesDone = compactions.filter(
      (e) => e.type === 'compaction' && e.strategy.startsWith('summary'),
    );
    expect(summariesDone.length).toBeGreaterThan(3);
    expect(
      summariesDone.slice(1).every((e) => e.type === 'compaction' && e.strategy === 'summary-update'),
    ).toBe(true);
    expect(summaries.calls).toBe(summariesDone.length);
    const final = model.requests.at(-1) as ChatRequest;
    const checkpoint = text(final.messages[1]);
    expect(checkpoint.startsWith(CHECKPOINT_HEADER)).toBe(true);
    expect(checkpoint).toContain(`## Goal\n${GOAL}`);
    expect(checkpoint).toMatch(/## Progress\nDone through step \d{3}\./);
    for (let i = 0; i < 40; i++) {
      // Each file is touched by steps i, i+40, …: modified when any of those wrote or edited it.
      const touchedBy = Array.from({ length: 8 }, (_, k) => TOOL_OF_STEP[(i + 40 * k) % 3]);
      const expected = touchedBy.some((t) => t !== 'read') ? 'modified' : 'read';
      expect(checkpoint).toContain(`- ${pathOfStep(i)} (${expected})`);
    }
  });

  it('streams each summary as events of its own kind, before the call it prepares', () => {
    const starts = events.filter((e) => e.type === 'summary-start');
    expect(starts.length).toBe(summaries.calls);
    expect(events.filter((e) => e.type === 'summary-update').length).toBeGreaterThanOrEqual(summaries.calls);
    const i = events.findIndex((e) => e.type === 'summary-start');
    const next = events.slice(i).map((e) => e.type);
    expect(next.indexOf('compaction')).toBeLessThan(next.indexOf('message-start'));
  });

  it('counts the summary calls in the run totals', () => {
    const end = events.at(-1) as Extract<AgentEvent, { type: 'agent-end' }>;
    expect(end.usage.inputTokens).toBe(1_000 * summaries.calls);
    expect(end.usage.outputTokens).toBe(200 * summaries.calls);
  });

  it('reports how full the context is before each call, and before each summary the size about to be sent', () => {
    const sent = events.filter(
      (e, i) => e.type === 'context-usage' && events[i + 1]?.type !== 'summary-start',
    );
    expect(sent).toHaveLength(steps + 1);
    for (const e of sent) {
      if (e.type !== 'context-usage') continue;
      expect(e.usage.contextWindow).toBe(8_000);
      expect(e.usage.tokens).toBeLessThanOrEqual(8_000 - e.usage.reserveTokens);
    }
    // Right before a summary: the context that would be sent, over the budget (why it is summarized).
    const summaryStarts = events.flatMap((e, i) => (e.type === 'summary-start' ? [events[i - 1]] : []));
    expect(summaryStarts).toHaveLength(summaries.calls);
    for (const e of summaryStarts) {
      expect(e?.type).toBe('context-usage');
      if (e?.type === 'context-usage') expect(e.usage.tokens).toBeGreaterThan(8_000 - e.usage.reserveTokens);
    }
    const last = engine.usage();
    expect(last?.droppedTokens).toBeGreaterThan(10 * (last?.tokens ?? Infinity));
    expect(engine.snapshot().filesTouched.modified.length).toBeGreaterThan(0);
  });
});

describe('incremental checkpoints', () => {
  it('sends a later summary only the new messages, with the checkpoint so far', async () => {
    const model = workingModel(150);
    const summaries = checkpointWriter();
    await collectEvents(
      runAgent({
        model,
        prompt: GOAL,
        tools: fileTools(),
        maxSteps: 151,
        contextManager: contextEngine({ model, contextWindow: 8_000, summaryModel: summaries }),
      }),
    );
    expect(summaries.calls).toBeGreaterThanOrEqual(2);
    const [first, second] = summaries.requests.map(promptOf);
    expect(first).not.toContain('<checkpoint>');
    const firstLast = Math.max(...[...(first ?? '').matchAll(/Step (\d+):/g)].map((m) => Number(m[1])));
    expect(second).toContain(`<checkpoint>\n## Goal\n${GOAL}\n## Progress\nDone through step ${firstLast}.`);
    expect(second).not.toContain('Step 0:');
    expect(second).toContain(`Step ${firstLast + 1}:`);
  });
});

describe('when the summary model fails', () => {
  it('retries, then fails the run with ContextCompactionError keeping the uncompacted transcript', async () => {
    const model = workingModel(60);
    const failing = scriptedModel([
      errorTurn(new NetworkError('socket hang up')),
      errorTurn(new NetworkError('socket hang up')),
      errorTurn(new NetworkError('socket hang up')),
    ]);
    const { events, error } = await settleRun(
      runAgent({
        model,
        prompt: GOAL,
        tools: fileTools(),
        maxSteps: 61,
        contextManager: contextEngine({
          model,
          contextWindow: 8_000,
          summaryModel: failing,
          retryDelayMs: 0,
        }),
      }),
    );
    expect(ContextCompactionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /failed after 3 attempt\(s\): socket hang up.*transcript was kept/,
    );
    expect(failing.calls).toBe(3);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(2);
    const transcript = (error as ContextCompactionError).transcript;
    const ended = events
      .filter((e) => e.type === 'message-end')
      .map((e) => (e as { message: Message }).message);
    expect(transcript).toEqual(ended);
    expect(text(transcript[0])).toBe(GOAL);
  });
});

/** The same message but for the ids a request maps back to the provider's own. */
function sameContent(a: unknown, b: unknown): boolean {
  const shape = (m: unknown) => {
    const { role, content } = m as { role: string; content: unknown };
    return JSON.stringify({ role, content }, (key, value: unknown) =>
      key === 'id' || key === 'providerId' ? undefined : value,
    );
  };
  return a !== undefined && b !== undefined && shape(a) === shape(b);
}
