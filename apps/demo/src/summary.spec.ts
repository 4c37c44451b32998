import { emptyUsage, initialAgentState, reduceAgentState, type AgentEvent } from '@rxagent/core';
import { assistantMessage } from '@rxagent/testing';
import { formatCost, formatDuration, formatSummary, summaryOf } from './summary.js';

const usage = { ...emptyUsage(), inputTokens: 12040, outputTokens: 233, totalTokens: 12273 };

describe('formatSummary', () => {
  it('steps, tokens (input, output, total) and wall time', () => {
    expect(formatSummary({ steps: 3, usage, elapsedMs: 3210, reason: 'completed' })).toBe(
      '3 steps · tokens: 12,040 input, 233 output, 12,273 total · 3.2 s',
    );
  });

  it('shows cached input and why it stopped when it did not just complete', () => {
    const cached = { ...usage, cacheReadTokens: 8000 };
    expect(formatSummary({ steps: 1, usage: cached, elapsedMs: 450, reason: 'steps-limit' })).toBe(
      '1 step · tokens: 12,040 input (8,000 cached), 233 output, 12,273 total · 450 ms · stopped: steps-limit',
    );
  });
});

describe('summaryOf', () => {
  it("takes the run's figures from its state: sub-runs and the summary call counted, the cost when priced", () => {
    const priced = (inputTokens: number, outputTokens: number) => ({
      ...emptyUsage(),
      inputTokens,
      outputTokens,
      totalTokens: inputTokens + outputTokens,
      costUsd: (inputTokens + outputTokens) / 1e6,
    });
    const scout = { toolCallId: 'c1', agent: 'scout', runId: 'r/c1/0' };
    const events: AgentEvent[] = [
      { type: 'agent-start', runId: 'r' },
      { type: 'turn-start', step: 1 },
      {
        type: 'compaction',
        strategy: 'summary',
        tokensBefore: 9000,
        tokensAfter: 900,
        summarized: 9,
        usage: priced(2000, 100),
      },
      { type: 'message-end', message: assistantMessage([], 'tool-calls', { usage: priced(500, 20) }) },
      {
        type: 'subrun',
        toolCallId: 'c1',
        path: [scout],
        event: { type: 'message-end', message: assistantMessage([], 'stop', { usage: priced(700, 30) }) },
      },
    ];
    const state = events.reduce(reduceAgentState, initialAgentState());
    const summary = summaryOf({ ...state, stopReason: 'completed' }, 1200);
    expect(summary).toEqual({
      steps: 1,
      usage: state.usage,
      elapsedMs: 1200,
      reason: 'completed',
      subruns: { count: 1, totalTokens: 730 },
    });
    expect(formatSummary(summary)).toBe(
      '1 step · tokens: 3,200 input, 150 output, 3,350 total (730 by 1 sub-run) · $0.003350 · 1.2 s',
    );
  });
});

describe('formatCost', () => {
  it('four decimals from a cent up, six below', () => {
    expect(formatCost(0.000642)).toBe('$0.000642');
    expect(formatCost(1.23456)).toBe('$1.2346');
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [999, '999 ms'],
    [1000, '1.0 s'],
    [59_940, '59.9 s'],
    [65_000, '1 min 5 s'],
  ])('%d ms → %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
