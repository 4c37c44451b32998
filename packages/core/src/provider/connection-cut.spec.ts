import { describeError, isConnectionCut } from './connection-cut.js';

describe('isConnectionCut', () => {
  it("finds undici's cut through the causes", () => {
    const socket = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    expect(isConnectionCut(new TypeError('terminated', { cause: socket }))).toBe(true);
    expect(isConnectionCut(new Error('stream error', { cause: new TypeError('terminated') }))).toBe(true);
    expect(isConnectionCut(Object.assign(new Error('reset'), { code: 'ECONNRESET' }))).toBe(true);
  });

  it('is false for other errors', () => {
    expect(isConnectionCut(new Error('fetch failed'))).toBe(false);
    expect(isConnectionCut(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isConnectionCut(undefined)).toBe(false);
  });
});

describe('describeError', () => {
  it('joins the messages of the cause chain', () => {
    expect(describeError(new Error('fetch failed.', { cause: new Error('connect ECONNREFUSED') }))).toBe(
      'fetch failed: connect ECONNREFUSED',
    );
    expect(describeError('plain')).toBe('plain');
  });
});
