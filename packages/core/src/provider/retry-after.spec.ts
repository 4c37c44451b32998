import { headerReader, retryAfterMs, retryInfoDelayMs, shouldRetryHeader } from './retry-after.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const wait = (headers: Record<string, string>, extraHeaders?: string[]) =>
  retryAfterMs({ headers: new Headers(headers), ...(extraHeaders && { extraHeaders }) }, NOW);

describe('retryAfterMs', () => {
  it.each([
    [{ 'retry-after-ms': '250.5', 'retry-after': '9' }, 250.5],
    [{ 'retry-after-ms': 'x', 'retry-after': '2' }, 2000],
    [{ 'retry-after-ms': '-5', 'retry-after': '2' }, 2000],
    [{ 'retry-after': '0.05' }, 50],
    [{ 'retry-after': '20' }, 20_000],
    [{ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, 30_000],
    [{ 'retry-after': 'Wed, 31 Dec 2025 23:00:00 GMT' }, 0],
    [{ 'retry-after': 'soon' }, undefined],
    [{ 'retry-after': '-1' }, undefined],
    [{}, undefined],
  ])('reads %j as %s', (headers, expected) => {
    expect(wait(headers)).toBe(expected);
  });

  it('reads provider-specific headers after the standard ones: seconds, durations, RFC 3339 times', () => {
    expect(wait({ 'x-ratelimit-reset-requests': '1m30s' }, ['x-ratelimit-reset-requests'])).toBe(90_000);
    expect(wait({ 'x-ratelimit-reset-tokens': '250ms' }, ['x-ratelimit-reset-tokens'])).toBe(250);
    expect(
      wait({ 'anthropic-ratelimit-requests-reset': '2026-01-01T00:00:05Z' }, [
        'anthropic-ratelimit-requests-reset',
      ]),
    ).toBe(5000);
    expect(wait({ 'x-reset': '3' }, ['x-reset'])).toBe(3000);
    expect(wait({ 'retry-after': '1', 'x-reset': '3' }, ['x-reset'])).toBe(1000);
    expect(wait({ 'x-reset': 'later' }, ['x-reset'])).toBeUndefined();
    // Not asked for: ignored.
    expect(wait({ 'x-ratelimit-reset-requests': '1m30s' })).toBeUndefined();
  });

  it("reads Google's RetryInfo from the error body when no header says more", () => {
    const body = {
      error: {
        code: 429,
        status: 'RESOURCE_EXHAUSTED',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [] },
          { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' },
        ],
      },
    };
    expect(retryAfterMs({ body }, NOW)).toBe(34_400);
    expect(retryAfterMs({ headers: new Headers({ 'retry-after': '1' }), body }, NOW)).toBe(1000);
  });

  it('is undefined without anything usable', () => {
    expect(retryAfterMs({}, NOW)).toBeUndefined();
    expect(retryAfterMs({ headers: null, body: 'Too many requests' }, NOW)).toBeUndefined();
  });
});

describe('retryInfoDelayMs', () => {
  const info = (retryDelay: unknown) => [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay }];

  it('reads the JSON duration form, the object form, and the error object or details list alone', () => {
    expect(retryInfoDelayMs({ error: { details: info('2s') } })).toBe(2000);
    expect(retryInfoDelayMs({ details: info('0.5s') })).toBe(500);
    expect(retryInfoDelayMs(info({ seconds: '3', nanos: 250_000_000 }))).toBe(3250);
  });

  it('is undefined for other details or a delay it cannot read', () => {
    expect(retryInfoDelayMs({ error: { details: [{ '@type': 'google.rpc.ErrorInfo' }] } })).toBeUndefined();
    expect(retryInfoDelayMs({ error: { details: info('soon') } })).toBeUndefined();
    expect(retryInfoDelayMs(undefined)).toBeUndefined();
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

describe('headerReader', () => {
  it('reads a plain record like fetch Headers, whatever the case', () => {
    const headers = headerReader({ 'Retry-After': '2', 'set-cookie': ['a', 'b'], none: undefined });
    expect(headers.get('retry-after')).toBe('2');
    expect(headers.get('Set-Cookie')).toBe('a, b');
    expect(headers.get('none')).toBeNull();
  });
});
