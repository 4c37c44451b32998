import { redactSecret } from './redact-secret.js';

describe('redactSecret', () => {
  it('removes the secret from strings and nested values', () => {
    const body = { message: 'bad key sk-abcdef', nested: [{ hint: 'sk-abcdef!' }], n: 1 };
    expect(redactSecret(body, 'sk-abcdef')).toEqual({
      message: 'bad key [redacted]',
      nested: [{ hint: '[redacted]!' }],
      n: 1,
    });
    expect(redactSecret('sk-abcdef and sk-abcdef', 'sk-abcdef')).toBe('[redacted] and [redacted]');
  });

  it('leaves values alone without a (meaningful) secret', () => {
    expect(redactSecret('a b', undefined)).toBe('a b');
    expect(redactSecret('a b', 'a')).toBe('a b');
  });
});
