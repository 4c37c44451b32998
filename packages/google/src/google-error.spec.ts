import { AuthError, NetworkError, PartialStreamError, ProviderError, RateLimitError } from '@rxagent/core';
import { classifyGoogleError } from './google-error.js';

/** The shape of the SDK's ApiError (by name, as from another copy of the SDK). */
function apiError(status: number, body: unknown): Error {
  return Object.assign(new Error(JSON.stringify(body)), { name: 'ApiError', status });
}

describe('classifyGoogleError', () => {
  it('passes provider errors through', () => {
    const own = new AuthError('no key');
    expect(classifyGoogleError(own, { received: false })).toBe(own);
  });

  it("reads an ApiError from another copy of the SDK and a RetryInfo's delay", () => {
    const error = classifyGoogleError(
      apiError(429, {
        error: {
          code: 429,
          status: 'RESOURCE_EXHAUSTED',
          message: 'Slow down',
          details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3s' }],
        },
      }),
      { received: false },
    );
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryAfterMs: 3000, code: 'RESOURCE_EXHAUSTED' });
  });

  it('tells a cut after data (partial) from one before (network)', () => {
    const cut = new TypeError('terminated');
    expect(PartialStreamError.isInstance(classifyGoogleError(cut, { received: true }))).toBe(true);
    expect(NetworkError.isInstance(classifyGoogleError(cut, { received: false }))).toBe(true);
  });

  it('redacts every secret, and does not retry what it cannot classify', () => {
    const error = classifyGoogleError(new Error('odd failure with key-123456'), {
      received: false,
      secrets: ['key-123456'],
    });
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error.retryable).toBe(false);
    expect(error.message).toBe('The Gemini call failed: odd failure with [redacted]');
    expect(String((error.cause as Error).message)).not.toContain('key-123456');
  });
});
