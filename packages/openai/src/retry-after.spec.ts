import { retryAfterMs, shouldRetryHeader } from './retry-after.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');

describe('retryAfterMs', () => {
  it('prefers retry-after-ms', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250.5', 'retry-after': '9' }), NOW)).toBe(250.5);
  });

  it('reads retry-after as seconds', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '0.05' }), NOW)).toBe(50);
    expect(retryAfterMs(new Headers({ 'retry-after': '20' }), NOW)).toBe(20_000);
  });

  it('reads retry-after as an HTTP date measured from now (never negative)', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }), NOW)).toBe(30_000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }), NOW)).toBe(0);
  });

  it('is undefined without usable headers', () => {
    expect(retryAfterMs(undefined, NOW)).toBeUndefined();
    expect(retryAfterMs(new Headers(), NOW)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon', 'retry-after-ms': '-5' }), NOW)).toBeUndefined();
  });
});

describe('shouldRetryHeader', () => {
  it('reads x-should-retry', () => {
    expect(shouldRetryHeader(new Headers({ 'x-should-retry': 'true' }))).toBe(true);
    expect(shouldRetryHeader(new Headers({ 'x-should-retry': 'false' }))).toBe(false);
    expect(shouldRetryHeader(new Headers({ 'x-should-retry': 'maybe' }))).toBeUndefined();
    expect(shouldRetryHeader(undefined)).toBeUndefined();
  });
});
