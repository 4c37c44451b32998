import { retryAfterMs } from './retry-after.js';

describe('retryAfterMs', () => {
  const now = Date.parse('2030-01-01T00:00:00Z');
  it.each([
    [{ 'retry-after-ms': '120.5' }, 120.5],
    [{ 'retry-after-ms': 'x', 'retry-after': '2' }, 2000],
    [{ 'retry-after': '0.05' }, 50],
    [{ 'retry-after': 'Tue, 01 Jan 2030 00:00:03 GMT' }, 3000],
    [{ 'retry-after': 'Mon, 31 Dec 2029 00:00:00 GMT' }, 0],
    [{ 'retry-after': 'soon' }, undefined],
    [{ 'retry-after': '-1' }, undefined],
    [{}, undefined],
  ])('reads %j as %s', (headers, expected) => {
    expect(retryAfterMs(new Headers(headers), now)).toBe(expected);
  });
});
