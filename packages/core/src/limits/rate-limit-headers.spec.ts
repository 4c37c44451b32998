import { rateLimitFromHeaders } from './rate-limit-headers.js';

const NOW = Date.parse('2026-05-01T12:00:00Z');

describe('rateLimitFromHeaders', () => {
  it("reads OpenAI's x-ratelimit headers, resets written as durations", () => {
    const headers = new Headers({
      'x-ratelimit-limit-requests': '500',
      'x-ratelimit-remaining-requests': '499',
      'x-ratelimit-reset-requests': '120ms',
      'x-ratelimit-limit-tokens': '30000',
      'x-ratelimit-remaining-tokens': '28800',
      'x-ratelimit-reset-tokens': '2.4s',
    });
    expect(rateLimitFromHeaders(headers, NOW)).toEqual({
      type: 'rate-limit',
      limits: {
        requests: { limit: 500, remaining: 499, resetMs: 120 },
        tokens: { limit: 30_000, remaining: 28_800, resetMs: 2_400 },
      },
    });
  });

  it('reads durations with several units', () => {
    const headers = new Headers({
      'x-ratelimit-reset-tokens': '6m0s',
      'x-ratelimit-reset-requests': '1h2m3.5s',
    });
    expect(rateLimitFromHeaders(headers, NOW)?.limits).toEqual({
      tokens: { resetMs: 360_000 },
      requests: { resetMs: 3_723_500 },
    });
  });

  it("reads Anthropic's anthropic-ratelimit headers, resets as RFC 3339 dates from now", () => {
    const headers = new Headers({
      'anthropic-ratelimit-requests-limit': '50',
      'anthropic-ratelimit-requests-remaining': '49',
      'anthropic-ratelimit-requests-reset': '2026-05-01T12:00:01Z',
      'anthropic-ratelimit-input-tokens-limit': '40000',
      'anthropic-ratelimit-input-tokens-remaining': '39000',
      'anthropic-ratelimit-input-tokens-reset': '2026-05-01T12:00:02.500Z',
      'anthropic-ratelimit-output-tokens-limit': '8000',
      'anthropic-ratelimit-output-tokens-remaining': '8000',
      'anthropic-ratelimit-output-tokens-reset': '2026-05-01T11:59:00Z',
      'anthropic-ratelimit-tokens-remaining': '8000',
    });
    expect(rateLimitFromHeaders(headers, NOW)).toEqual({
      type: 'rate-limit',
      limits: {
        requests: { limit: 50, remaining: 49, resetMs: 1_000 },
        inputTokens: { limit: 40_000, remaining: 39_000, resetMs: 2_500 },
        // a reset in the past is now
        outputTokens: { limit: 8_000, remaining: 8_000, resetMs: 0 },
        tokens: { remaining: 8_000 },
      },
    });
  });

  it('leaves garbage out and names the headers it ignored (names only, not their values)', () => {
    const headers = new Headers({
      'x-ratelimit-limit-requests': 'lots',
      'x-ratelimit-remaining-requests': '-3',
      'x-ratelimit-reset-requests': 'soon',
      'x-ratelimit-remaining-tokens': '100',
      'anthropic-ratelimit-input-tokens-reset': 'tomorrow',
    });
    expect(rateLimitFromHeaders(headers, NOW)).toEqual({
      type: 'rate-limit',
      limits: { tokens: { remaining: 100 } },
      ignored: [
        'x-ratelimit-limit-requests',
        'x-ratelimit-remaining-requests',
        'x-ratelimit-reset-requests',
        'anthropic-ratelimit-input-tokens-reset',
      ],
    });
  });

  it('gives nothing for a response without rate-limit headers, or without headers', () => {
    expect(rateLimitFromHeaders(new Headers({ 'content-type': 'text/event-stream' }), NOW)).toBeUndefined();
    expect(rateLimitFromHeaders(undefined, NOW)).toBeUndefined();
  });
});
