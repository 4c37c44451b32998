import { emptyUsage } from '@rxagent/core';
import { formatDuration, formatSummary } from './summary.js';

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
