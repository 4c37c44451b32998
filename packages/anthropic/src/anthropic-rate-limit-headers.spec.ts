import { userMessage } from '@rxagent/core';
import { collect, textBlock, turn, withServer } from './anthropic-stream-fixtures.test.js';

const request = { messages: [userMessage('Hi')] };

describe('Anthropic rate-limit headers', () => {
  it('come first as a rate-limit event, resets measured from the scheduler’s clock', async () => {
    const reset = new Date(Date.now() + 60_000).toISOString();
    const events = await withServer(
      () => ({
        ...turn(textBlock(0, 'Hi')),
        headers: {
          'anthropic-ratelimit-requests-limit': '50',
          'anthropic-ratelimit-requests-remaining': '49',
          'anthropic-ratelimit-requests-reset': reset,
          'anthropic-ratelimit-input-tokens-limit': '40000',
          'anthropic-ratelimit-input-tokens-remaining': '39990',
          'anthropic-ratelimit-output-tokens-limit': '8000',
          'anthropic-ratelimit-output-tokens-remaining': '8000',
        },
      }),
      (model) => collect(model.stream(request)),
    );
    expect(events[0]).toEqual({
      type: 'rate-limit',
      limits: {
        requests: { limit: 50, remaining: 49, resetMs: expect.any(Number) },
        inputTokens: { limit: 40_000, remaining: 39_990 },
        outputTokens: { limit: 8_000, remaining: 8_000 },
      },
    });
    const first = events[0] as { limits: { requests: { resetMs: number } } };
    expect(first.limits.requests.resetMs).toBeGreaterThan(50_000);
    expect(first.limits.requests.resetMs).toBeLessThanOrEqual(60_000);
    expect(events.slice(1).map((e) => e.type)).toEqual(['text-delta', 'usage', 'finish']);
  });

  it('name the headers they could not read', async () => {
    const events = await withServer(
      () => ({ ...turn(textBlock(0, 'Hi')), headers: { 'anthropic-ratelimit-requests-remaining': 'n/a' } }),
      (model) => collect(model.stream(request)),
    );
    expect(events[0]).toEqual({
      type: 'rate-limit',
      limits: {},
      ignored: ['anthropic-ratelimit-requests-remaining'],
    });
  });
});
