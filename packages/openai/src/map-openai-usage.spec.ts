import { mapOpenAIChatUsage, mapOpenAIResponsesUsage } from './map-openai-usage.js';

describe('mapOpenAIChatUsage', () => {
  it('keeps cached tokens inside inputTokens and reports them as cacheReadTokens', () => {
    expect(
      mapOpenAIChatUsage({
        prompt_tokens: 100,
        completion_tokens: 20,
        total_tokens: 120,
        prompt_tokens_details: { cached_tokens: 64 },
        completion_tokens_details: { reasoning_tokens: 12 },
      }),
    ).toEqual({
      inputTokens: 100,
      outputTokens: 20,
      cacheReadTokens: 64,
      cacheWriteTokens: 0,
      totalTokens: 120,
      reasoningTokens: 12,
    });
  });

  it('fills what a compatible server leaves out', () => {
    expect(mapOpenAIChatUsage({ prompt_tokens: 5, completion_tokens: 2 } as never)).toEqual({
      inputTokens: 5,
      outputTokens: 2,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      totalTokens: 7,
    });
  });
});

describe('mapOpenAIResponsesUsage', () => {
  it('maps input/output tokens and their details', () => {
    expect(
      mapOpenAIResponsesUsage({
        input_tokens: 30,
        input_tokens_details: { cached_tokens: 10, cache_write_tokens: 5 },
        output_tokens: 8,
        output_tokens_details: { reasoning_tokens: 3 },
        total_tokens: 38,
      }),
    ).toEqual({
      inputTokens: 30,
      outputTokens: 8,
      cacheReadTokens: 10,
      cacheWriteTokens: 5,
      totalTokens: 38,
      reasoningTokens: 3,
    });
  });
});
