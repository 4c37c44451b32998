import { compactionLine } from './context-lines.js';

describe('compactionLine', () => {
  it('says what the engine did and the tokens before and after', () => {
    expect(
      compactionLine({
        type: 'compaction',
        strategy: 'summary',
        tokensBefore: 9000,
        tokensAfter: 3000,
        summarized: 12,
      }),
    ).toBe('… context compacted (summary checkpoint, 12 messages summarized): 9000 → 3000 tokens');
    expect(
      compactionLine({
        type: 'compaction',
        strategy: 'tool-result-stubs+clipped-results',
        tokensBefore: 9000,
        tokensAfter: 5000,
        summarized: 0,
      }),
    ).toBe('… context compacted (old tool results stubbed, large results cut): 9000 → 5000 tokens');
  });

  it('says what the summary call spent (it counts in the run total)', () => {
    expect(
      compactionLine({
        type: 'compaction',
        strategy: 'summary',
        tokensBefore: 9000,
        tokensAfter: 3000,
        summarized: 12,
        usage: {
          inputTokens: 4000,
          outputTokens: 210,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          totalTokens: 4210,
        },
      }),
    ).toBe(
      '… context compacted (summary checkpoint, 12 messages summarized): 9000 → 3000 tokens · the summary call: 4,210 tokens',
    );
  });

  it('shows an unknown strategy by its name', () => {
    expect(
      compactionLine({
        type: 'compaction',
        strategy: 'keep-last',
        tokensBefore: 30,
        tokensAfter: 10,
        summarized: 2,
      }),
    ).toBe('… context compacted (keep-last, 2 messages summarized): 30 → 10 tokens');
  });
});
