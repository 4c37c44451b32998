import { NetworkError, OverloadedError, RateLimitError } from '../errors/provider-errors.js';
import { isRetryable, retryDelayMs } from './retry-policy.js';

describe('retryDelayMs', () => {
  const none = () => 0;

  it('doubles from 1 s and caps at 60 s', () => {
    const e = new NetworkError('reset');
    expect([1, 2, 3, 4, 7, 10].map((n) => retryDelayMs(e, n, {}, none))).toEqual([
      1000, 2000, 4000, 8000, 60000, 60000,
    ]);
  });

  it('honours retry-after, capped too', () => {
    expect(retryDelayMs(new RateLimitError('x', { retryAfterMs: 2500 }), 1, {}, none)).toBe(2500);
    expect(retryDelayMs(new OverloadedError('x', { retryAfterMs: 0 }), 3, {}, none)).toBe(0);
    expect(retryDelayMs(new RateLimitError('x', { retryAfterMs: 3_600_000 }), 1, {}, none)).toBe(60_000);
  });

  it('applies jitter as a reduction of up to `jitter`', () => {
    const e = new NetworkError('reset');
    expect(retryDelayMs(e, 1, { jitter: 0.2 }, () => 1)).toBe(800);
    expect(retryDelayMs(e, 1, { jitter: 0.2 }, () => 0)).toBe(1000);
    expect(retryDelayMs(e, 2, { initialDelayMs: 10, maxDelayMs: 15, jitter: 0 })).toBe(15);
  });

  it('retries provider errors that say so, nothing else', () => {
    expect(isRetryable(new NetworkError('x'))).toBe(true);
    expect(isRetryable(new Error('x'))).toBe(false);
  });
});
