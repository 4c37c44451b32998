import { AuthError, NetworkError } from '@rxagent/core';
import { describeError } from './describe-error.js';

describe('describeError', () => {
  it('names the typed error and gives its message on one line', () => {
    expect(describeError(new NetworkError('Connection refused\n  at 127.0.0.1:1'))).toBe(
      'NetworkError: Connection refused at 127.0.0.1:1',
    );
  });

  it('never prints a secret', () => {
    const key = 'sk-live-abcdef123456';
    const line = describeError(new AuthError(`Incorrect API key provided: ${key}.`), [key]);
    expect(line).not.toContain(key);
    expect(line).toBe('AuthError: Incorrect API key provided: [redacted].');
  });

  it('a plain Error is just its message; anything else is a string', () => {
    expect(describeError(new Error('boom'))).toBe('boom');
    expect(describeError('nope')).toBe('nope');
    expect(describeError(new Error(''))).toBe('The run failed without a message.');
  });
});
