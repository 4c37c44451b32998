import { mapGoogleUsage } from './map-google-usage.js';

describe('mapGoogleUsage', () => {
  it('counts thoughts as output (reasoningTokens) and cached tokens as part of the input', () => {
    expect(
      mapGoogleUsage({
        promptTokenCount: 100,
        candidatesTokenCount: 20,
        thoughtsTokenCount: 30,
        cachedContentTokenCount: 60,
      }),
    ).toEqual({
      inputTokens: 100,
      outputTokens: 50,
      cacheReadTokens: 60,
      cacheWriteTokens: 0,
      totalTokens: 150,
      reasoningTokens: 30,
    });
  });

  it("adds a server tool's prompt tokens to the input; absent counts are 0", () => {
    expect(mapGoogleUsage({ promptTokenCount: 10, toolUsePromptTokenCount: 5 })).toEqual({
      inputTokens: 15,
      outputTokens: 0,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      totalTokens: 15,
    });
  });
});
